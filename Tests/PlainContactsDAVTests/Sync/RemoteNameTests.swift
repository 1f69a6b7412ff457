import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct RemoteNameTests {
    @Test(arguments: ["fastmail", "icloud.home", "Work_2", "a-b", "0", String(repeating: "x", count: 64)])
    func acceptsLettersDigitsDotsUnderscoresAndHyphens(text: String) throws {
        #expect(try RemoteName(text).rawValue == text)
    }

    @Test(arguments: [
        "", ".hidden", "-option", "..", "a/b", "../up", "a b", "tab\tname", "café", "a\\b", "x:y",
        String(repeating: "x", count: 65),
    ])
    func refusesAnythingThatCouldNotBeAFileNameOrAWord(text: String) {
        #expect(Self.code { _ = try RemoteName(text) } == .invalidValue)
    }

    @Test func namesSortInByteOrder() throws {
        let names = try ["b", "B", "a", "a.b", "a-b"].map { try RemoteName($0) }
        #expect(names.sorted().map(\.rawValue) == ["B", "a", "a-b", "a.b", "b"])
    }

    private static func code(_ body: () throws -> Void) -> ContactsError.Code? {
        do {
            try body()
            return nil
        } catch let error as ContactsError {
            return error.code
        } catch {
            return nil
        }
    }
}
