import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct ServerUserNameTests {
    @Test(
        "valid names are accepted",
        arguments: [
            "a", "kim", "Kim.Lee", "kim_l-1815", "kim@example.org", "kim+dav@example.org", "0",
            String(repeating: "x", count: 64),
        ])
    func validNameIsAccepted(name: String) throws {
        #expect(try ServerUserName(name).rawValue == name)
    }

    @Test(
        "invalid names are refused",
        arguments: [
            "", "kim:lee", ":", "kim lee", "kim/x", "kim%2f", ".", "..", ".kim", "-kim", "_kim", "@kim", "kïm", "kim\n",
            "kim\u{0}", "kim\t", "\u{7F}", "kim\u{200B}", String(repeating: "x", count: 65),
        ])
    func invalidNameIsRefused(name: String) {
        let error = #expect(throws: ContactsError.self) { try ServerUserName(name) }
        #expect(error?.code == .invalidValue)
        #expect(!ServerUserName.isValid(name))
    }

    @Test func theMessageNeverQuotesTheRefusedText() {
        for text in ["secret:pw", "sec ret", "secret\u{1B}[2J"] {
            let error = #expect(throws: ContactsError.self) { try ServerUserName(text) }
            #expect(error.map { !$0.description.contains("secret") } == true)
        }
    }

    @Test func namesAreCaseSensitiveAndOrderByBytes() throws {
        let names = try ["b", "B", "a", "A"].map { try ServerUserName($0) }
        #expect(names.sorted().map(\.rawValue) == ["A", "B", "a", "b"])
        #expect(try ServerUserName("Kim") != ServerUserName("kim"))
    }
}
