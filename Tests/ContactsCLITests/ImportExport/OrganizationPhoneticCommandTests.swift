import Foundation
import Testing

/// The phonetic organization (`X-PHONETIC-ORG`, Outlook's "Company Yomi") through the commands:
/// from an Apple card into the record file and `show`, out to vCard 3.0, 4.0 and Outlook's CSV
/// and back into another store, and removed by `set`.
@Suite struct OrganizationPhoneticCommandTests {
    private static let reading = "カブシキガイシャテスト"

    /// A card as Apple's Contacts writes one, the reading after `ORG`.
    private static let appleCard = [
        "BEGIN:VCARD", "VERSION:3.0", "N:Yamada;Taro;;;", "FN:Taro Yamada", "ORG:株式会社テスト;営業部",
        "X-PHONETIC-ORG:\(reading)", "TITLE:部長", "END:VCARD",
    ].map { $0 + "\r\n" }.joined()

    @Test func aCardsPhoneticOrganizationIsStoredShownExportedAndImportedBack() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let card = sandbox.root.appending(path: "taro.vcf")
        try Data(Self.appleCard.utf8).write(to: card)
        try sandbox.succeed(["import", card.path(percentEncoded: false)])

        let record = try #require(try sandbox.storeFiles(in: "people").first { $0.hasSuffix(".json") })
        let json = try String(contentsOf: sandbox.storeFile("people/" + record), encoding: .utf8)
        #expect(json.contains("\"organizationPhonetic\": \"\(Self.reading)\""))
        #expect(!json.contains("X-PHONETIC-ORG"), "the line is mapped, not kept verbatim")
        let shown = try sandbox.succeed(["show", "1"]).lines
        #expect(shown.contains { $0.hasPrefix("  phonetic organization") && $0.hasSuffix(Self.reading) })

        for version in ["3.0", "4.0"] {
            let exported = try sandbox.succeed(["export", "--vcard-version", version]).stdout
            #expect(exported.contains("ORG:株式会社テスト;営業部\r\nX-PHONETIC-ORG:\(Self.reading)\r\nTITLE:部長\r\n"))
            #expect(try Self.importedReading(exported, named: "taro-\(version).vcf") == Self.reading, "vCard \(version)")
        }
        let outlook = try sandbox.succeed(["export", "--format", "outlook-csv"]).stdout
        #expect(outlook.hasPrefix("Title,First Name,Middle Name,Last Name,Suffix,Nickname,Given Yomi,Surname Yomi,Company,Company Yomi,"))
        #expect(try Self.importedReading(outlook, named: "taro.csv") == Self.reading, "Outlook CSV")

        try sandbox.succeed(["set", "1", "organizationPhonetic="])
        #expect(try sandbox.json("1")["organizationPhonetic"] == nil)
    }

    /// The phonetic organization of the one person that importing `text` into a new store gives.
    private static func importedReading(_ text: String, named name: String) throws -> String? {
        let copy = try CLISandbox()
        try copy.initStore()
        let file = copy.root.appending(path: name)
        try Data(text.utf8).write(to: file)
        try copy.succeed(["import", file.path(percentEncoded: false)])
        return try copy.json("1")["organizationPhonetic"] as? String
    }
}
