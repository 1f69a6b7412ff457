import Foundation
@testable import PlainContacts

/// The vCard files under `Tests/PlainContactsTests/Fixtures/vcards`, found from this source
/// file's path so that the test target needs no resources.
enum VCardFixtures {
    /// The `Fixtures/vcards` folder.
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // VCard
        .deletingLastPathComponent()  // PlainContactsTests
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("vcards")

    /// The file deliberately left without `END:VCARD`.
    static let unparsable = "khard/unparsable.vcf"

    /// Every `.vcf` file as a path relative to ``folder``, sorted.
    static let all: [String] = {
        let subfolders = ["handmade", "khard", "vcard4android", "vcardimport"]
        var paths: [String] = []
        for subfolder in subfolders {
            let names = (try? FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent(subfolder).path)) ?? []
            paths += names.filter { $0.hasSuffix(".vcf") }.map { "\(subfolder)/\($0)" }
        }
        return paths.sorted()
    }()

    /// Every fixture that must parse.
    static let parsable: [String] = all.filter { $0 != unparsable }

    /// The bytes of a fixture.
    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(relativePath))
    }

    /// The cards of a fixture.
    static func cards(_ relativePath: String) throws -> [VCard] {
        try VCardReader.parse(data(relativePath), source: relativePath)
    }
}

/// Helpers shared by the vCard tests.
enum VCardTesting {
    /// Parses text given as a Swift string, leniently unless `strict`.
    static func parse(_ text: String, source: String = "test.vcf", strict: Bool = false) throws -> [VCard] {
        try VCardReader.parse(Data(text.utf8), source: source, strict: strict)
    }

    /// Parses raw bytes, leniently unless `strict`.
    static func parse(bytes: [UInt8], source: String = "test.vcf", strict: Bool = false) throws -> [VCard] {
        try VCardReader.parse(Data(bytes), source: source, strict: strict)
    }

    /// The cards with vCard 2.1 ones relabelled 3.0: the reader gives 2.1 values in the escaping
    /// of 3.0 (a literal backslash doubled), so they are written back as 3.0.
    static func writable(_ cards: [VCard]) -> [VCard] {
        cards.map { card in
            var card = card
            if card.version == "2.1" { card.version = "3.0" }
            return card
        }
    }

    /// The cards with every line number set to 0, to compare content only.
    static func withoutLines(_ cards: [VCard]) -> [VCard] {
        cards.map { card in
            var card = card
            card.startLine = 0
            for index in card.properties.indices { card.properties[index].line = 0 }
            return card
        }
    }

    /// The `ContactsError` thrown by `body`, or `nil` when it throws something else or nothing.
    static func contactsError(_ body: () throws -> Void) -> ContactsError? {
        thrown(body)
    }

    /// The `InterchangeError` `body` throws, or `nil`.
    static func interchangeError(_ body: () throws -> Void) -> InterchangeError? {
        thrown(body)
    }

    /// The error of one domain that `body` throws, or `nil` when it throws nothing or another.
    private static func thrown<Domain>(_ body: () throws -> Void) -> PlainContactsError<Domain>? {
        do {
            try body()
            return nil
        } catch let error as PlainContactsError<Domain> {
            return error
        } catch {
            return nil
        }
    }

    /// A new empty folder for one test.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("PlainContactsTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
