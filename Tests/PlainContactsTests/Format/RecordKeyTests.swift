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
}
