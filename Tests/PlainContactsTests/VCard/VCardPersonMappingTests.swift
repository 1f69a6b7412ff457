import Foundation
import TestTags
import Testing
@testable import PlainContacts

@Suite struct VCardPersonMappingTests {
    /// Every card of the fixtures that maps to a person.
    static let cards: [(file: String, card: VCard)] = {
        let root = VCardFixtures.folder
        let files = (FileManager.default.enumerator(atPath: root.path(percentEncoded: false))?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".vcf") }.sorted()
        return files.flatMap { file -> [(String, VCard)] in
            guard let data = FileManager.default.contents(atPath: root.appending(path: file).path(percentEncoded: false)),
                let cards = try? VCardReader.parse(data, source: file)
            else { return [] }
            return cards.filter { !VCardImporter.isGroupCard($0) }.map { (file, $0) }
        }
    }()

    @Test func valuesToldPlainWithoutTheExportAreOnesTheExportSaysInFull() throws {
        #expect(Self.cards.count > 1000)
        for (file, card) in Self.cards {
            var fast = VCardPersonMapping(card: card, source: file)
            var slow = VCardPersonMapping(card: card, source: file, checkingEveryValue: true)
            guard let quick = try? fast.run(), let full = try? slow.run() else { continue }
            #expect(
                VCardOrigin(of: quick.person.state) == VCardOrigin(of: full.person.state),
                "\(file):\(card.startLine) keeps other lines than the full comparison does")
        }
    }
}
