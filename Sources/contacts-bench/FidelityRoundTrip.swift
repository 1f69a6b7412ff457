import Foundation
import PlainContacts

/// The round trip of a fidelity run: the 3.0 exports imported into a fresh store and
/// exported again.
enum FidelityRoundTrip {
    /// The indices of the exports whose person, imported into a fresh store at `url` and
    /// exported again as 3.0, gives other content lines (``FidelityCard/structural`` lines
    /// aside); all of them when the import fails.
    ///
    /// - Throws: ``ContactsError`` when the store cannot be created.
    static func unstable(_ exports: [FidelityExports], storeAt url: URL) throws -> Set<Int> {
        let firsts = exports.indices.compactMap { index in exports[index].v3.map { (index, $0) } }
        guard !firsts.isEmpty else { return [] }
        let book = try AddressBook.create(at: url)
        let report: VCardImportReport
        do {
            let data = Data(firsts.map(\.1).joined().utf8)
            report = try book.importVCards(from: data, source: "round trip", options: VCardImportOptions(onMatch: .createNew)) { _ in
                .createNew
            }
        } catch let error as ContactsError where error.code != .io {
            return Set(firsts.map(\.0))
        }
        var unstable: Set<Int> = []
        for (position, (index, first)) in firsts.enumerated() {
            let person = position < report.added.count ? book.person(withID: report.added[position]) : nil
            let second = person.flatMap { try? book.exportVCards([$0], version: .v3) }
            if second.map(FidelityExports.lines).map({ $0.map(\.text) }) != FidelityExports.lines(first).map(\.text) {
                unstable.insert(index)
            }
        }
        return unstable
    }
}
