import Foundation
import PlainContacts

/// `contacts-bench --fidelity DIR`: how much of real vCard files survives the library's
/// import, its 3.0 and 4.0 export, and a round trip.
///
/// Every vCard file under the folder is imported into a fresh store (the default options,
/// except that every card becomes a new person, so that each person answers for one card).
/// Each person is exported as 3.0 and as 4.0 and the original card's lines are looked up in
/// the exports (``FidelityComparison``). The 3.0 exports are imported into another fresh store
/// and exported again; a person whose second export differs from the first is unstable.
enum FidelityRun {
    /// Measures the files under `folder` and prints the figures, as JSON when `json` is set,
    /// with every refused card, lost line (file, card line, property without its value) and
    /// unstable card when `details` is.
    ///
    /// - Throws: ``UsageError`` and the other errors of ``summary(of:)``.
    static func run(folder: URL, details: Bool, json: Bool) throws {
        let summary = try summary(of: folder)
        Progress.note("compared \(Format.count(summary.cards)) cards of \(Format.count(summary.files)) files")
        print(json ? try summary.json(details: details) : summary.text(details: details))
    }

    /// Measures the files under `folder`, each imported into its own temporary store.
    ///
    /// - Throws: ``UsageError`` when `folder` is not a folder; ``ContactsError/Code/io`` when
    ///   a file cannot be read or a temporary store cannot be made.
    static func summary(of folder: URL) throws -> FidelitySummary {
        let files = try vCardFiles(under: folder)
        let workspace = try Workspace(keep: false)
        defer { workspace.finish() }
        var summary = FidelitySummary(folder: folder.path)
        for (index, file) in files.enumerated() {
            let data = try BenchFolder.read(file.url)
            let stores = (workspace.path("store-\(index)"), workspace.path("round-trip-\(index)"))
            try measure(file, cards: FidelityCard.cards(in: data), stores: stores, into: &summary)
            workspace.remove(stores.0)
            workspace.remove(stores.1)
        }
        return summary
    }

    /// The files under `folder` (recursively) named `.vcf` or `.vcard` or holding a card,
    /// sorted by their path relative to `folder`.
    ///
    /// - Throws: the errors of ``BenchFolder/files(under:option:where:)``.
    static func vCardFiles(under folder: URL) throws -> [(url: URL, name: String)] {
        try BenchFolder.files(under: folder, option: "--fidelity") { url in
            if ["vcf", "vcard"].contains(url.pathExtension.lowercased()) { return true }
            guard let data = try? Data(contentsOf: url) else { return false }
            return !FidelityCard.cards(in: data).isEmpty
        }
    }

    private static func measure(
        _ file: (url: URL, name: String), cards: [FidelityCard], stores: (URL, URL), into summary: inout FidelitySummary
    ) throws {
        summary.files += 1
        summary.cards += cards.count
        guard !cards.isEmpty else {
            summary.filesWithoutCards += 1
            return
        }
        let book = try AddressBook.create(at: stores.0)
        let report: VCardImportReport
        do {
            report = try importEveryCard(contentsOf: file.url, into: book)
        } catch let error as ContactsError where error.code != .io {
            summary.filesRefused += 1
            refuse(cards, file: file.name, reason: "\(error.code) at line \(error.line ?? 0)", into: &summary)
            return
        }
        summary.warnings += report.warnings.count
        let people = report.added.compactMap { book.person(withID: $0) }
        let personCards = cards.filter { !$0.isGroup }
        let groupCards = cards.count - personCards.count
        let exports = people.map { person in FidelityExports(book: book, person: person) }
        let pairs = FidelityPairing.pairs(personCards, exports.map(\.v3Lines))
        let paired = Set(pairs.map(\.card))
        refuse(
            personCards.indices.filter { !paired.contains($0) }.map { personCards[$0] }, file: file.name, reason: nil,
            into: &summary)
        summary.refusedCards += max(0, groupCards - book.allGroups().count)
        for (cardIndex, exportIndex) in pairs {
            compare(personCards[cardIndex], exports[exportIndex], file: file.name, into: &summary)
        }
        let unstableExports = try FidelityRoundTrip.unstable(exports, storeAt: stores.1)
        summary.unstable += unstableExports.count
        for (cardIndex, exportIndex) in pairs where unstableExports.contains(exportIndex) {
            summary.findings.append(.init(kind: "unstable", file: file.name, cardLine: personCards[cardIndex].startLine))
        }
    }

    /// Imports a file with the default options, except that no card is merged into another.
    static func importEveryCard(contentsOf url: URL, into book: AddressBook) throws -> VCardImportReport {
        try book.importVCards(contentsOf: url, options: VCardImportOptions(onMatch: .createNew)) { _ in .createNew }
    }

    /// Counts cards as refused; `reason` is the error code and line when the whole file was.
    private static func refuse(
        _ cards: [FidelityCard], file: String, reason: String?, into summary: inout FidelitySummary
    ) {
        for card in cards {
            summary.refusedCards += 1
            summary.linesInRefusedCards += card.lines.count
            summary.findings.append(.init(kind: "refused", file: file, cardLine: card.startLine, property: reason))
        }
    }

    private static func compare(
        _ card: FidelityCard, _ export: FidelityExports, file: String, into summary: inout FidelitySummary
    ) {
        summary.people += 1
        guard let v3 = export.v3Lines, let v4 = export.v4Lines else {
            summary.exportFailures += 1
            return
        }
        for (version, lines) in [("3.0", v3), ("4.0", v4)] {
            let comparison = FidelityComparison(original: card.lines, exported: lines)
            if version == "3.0" { summary.v3.add(comparison) } else { summary.v4.add(comparison) }
            for line in comparison.lost {
                summary.findings.append(
                    .init(kind: "lost \(version)", file: file, cardLine: card.startLine, property: line.redactedHead))
            }
        }
    }
}
