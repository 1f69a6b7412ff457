import Foundation
import Testing
@testable import PlainContacts

@Suite struct VCardCorpusTests {
    /// The files of the fixtures that hold no card at all, which import refuses either way.
    static let cardless: Set<String> = ["folkerkinzel-vcards/Empty.vcf", "evolution-data-server/libebook/vcard/7.vcf", "recovery/not-a-vcard.vcf"]

    @Test func everyCardOfTheGatheredFixturesIsReadAndMappedWithoutRefusal() throws {
        let root = VCardFixtures.folder
        let files = (FileManager.default.enumerator(atPath: root.path(percentEncoded: false))?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }
            .filter { path in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: root.appending(path: path).path(percentEncoded: false), isDirectory: &isFolder)
                    && !isFolder.boolValue
            }
        var cards = 0
        for file in files {
            let data = try Data(contentsOf: root.appending(path: file))
            guard !Self.cardless.contains(file) else {
                #expect((try? VCardReader.parse(data, source: file))?.isEmpty ?? true, "\(file) holds no card")
                continue
            }
            let parsed = try VCardReader.parse(data, source: file)
            #expect(!parsed.isEmpty, "\(file) gave no card")
            for card in parsed {
                _ = try VCardImporter.map(card, source: file, strict: false)
                cards += 1
            }
        }
        #expect(files.count > 200)
        #expect(cards > 1200)
    }
}
