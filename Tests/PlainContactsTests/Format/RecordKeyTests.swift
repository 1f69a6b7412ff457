import Testing
@testable import PlainContacts

/// Keys come from file names and member lines that anyone may edit: only names that stay
/// inside their folder are accepted.
@Suite struct RecordKeyTests {
    @Test(arguments: ["katie-bell-7kq2mx", "tarou-yamada-p7iy57", "a", "kim.backup", "名前-abc123", String(repeating: "k", count: 200)])
    func acceptsAPlainFileName(_ text: String) {
        #expect(RecordKey(rawValue: text)?.rawValue == text)
    }

    @Test(arguments: ["", ".hidden", "..", "a/b", "../escape", "nul\0byte", String(repeating: "k", count: 201)])
    func refusesANameThatCouldLeaveTheFolder(_ text: String) {
        #expect(RecordKey(rawValue: text) == nil)
    }

    @Test func ordersByBytes() throws {
        let upper = try #require(RecordKey(rawValue: "Zed-abc123"))
        let lower = try #require(RecordKey(rawValue: "anna-abc123"))
        #expect(upper < lower)
    }

    @Test func aSlugIsMadeFromTheStartOfTheNameOnly() {
        let long = String(repeating: "é", count: 1_000_000)
        let source = RecordKey.slugSource(of: long)
        #expect(source.unicodeScalars.count == RecordKey.slugSourceLimit)
        #expect(RecordKey.slugSource(of: "Katie Bell") == "Katie Bell")
        let decomposed = String(repeating: "e\u{301}", count: 1_000_000)
        #expect(RecordKey.slugSource(of: decomposed).unicodeScalars.count == RecordKey.slugSourceLimit)
    }

    @Test func aMillionAccentedLettersMakeAKeyOfBoundedLength() {
        let name = String(repeating: "é", count: 1_000_000)
        #expect(RecordKey.slug(of: name) == String(repeating: "e", count: 40))
        let key = RecordKey.make(name: name, fallback: "person")
        #expect(key.rawValue.utf8.count == 40 + 7)
        #expect(RecordKey.slug(of: String(repeating: "e\u{301}", count: 1_000_000)) == String(repeating: "e", count: 40))
    }
}
