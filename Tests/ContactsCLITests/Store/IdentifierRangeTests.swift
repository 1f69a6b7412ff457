import Foundation
import Testing

/// IDs and multi-value identifiers at the top of their 32-bit range: typed errors, never a trap.
@Suite struct IdentifierRangeTests {
    /// A store with one person whose file holds `extra` keys; returns the person's record ID.
    @discardableResult
    private func storeWithPerson(_ sandbox: CLISandbox, extra: String) throws -> String {
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let name = try #require(try sandbox.storeFiles(in: "people").first)
        let url = sandbox.storeFile("people/\(name)")
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "{\n", with: "{\n" + extra + ",\n").utf8).write(to: url, options: .atomic)
        return id
    }

    @Test func identifierAtTheTopInAPersonFileIsExit65ForEveryCommand() throws {
        let sandbox = try CLISandbox()
        let id = try storeWithPerson(sandbox, extra: #""phones": [{"id": 2147483647, "value": "x"}]"#)
        for arguments in [["list"], ["show", id], ["set", id, "note=x"], ["export"], ["doctor"], ["doctor", "--fix"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 65, "contacts \(arguments.joined(separator: " ")): \(result)")
        }
    }

    @Test func unnumberedEntryWithNoIdentifierLeftIsExit65() throws {
        let sandbox = try CLISandbox()
        try storeWithPerson(sandbox, extra: #""nextValueID": 2147483647, "phones": [{"value": "x"}]"#)
        #expect(try sandbox.run(["list"]).status == 65)
    }

    @Test func addingAfterTheHighestIDIsExit65() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try Data(#"{"group": 999999999, "person": 999999999}"#.utf8).write(to: sandbox.storeFile(".contacts/ids.json"))
        #expect(try sandbox.run(["add", "--first", "Kim"]).status == 65)
        #expect(try sandbox.run(["group", "create", "Friends"]).status == 65)
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
    }

    @Test func setWithAnIdentifierAtTheTopIsExit65AndChangesNothing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["set", id, #"phones=[{"id": 2147483647, "value": "x"}]"#])
        #expect(result.status == 65)
        #expect(try sandbox.snapshot() == before)
    }

    /// Damage the fuzz target also makes, through the command: a typed error, exit 65.
    @Test(arguments: [
        #""id": 1e309"#, #""nextValueID": -1"#, #""phones": [{"id": 2147483648, "value": "x"}]"#,
        #""note": "\#(String(repeating: "[", count: 5000))""#, #""x": \#(String(repeating: "[", count: 5000))"#,
        "<<<<<<< ours\n\"note\": \"a\"\n=======\n\"note\": \"b\"\n>>>>>>> theirs\n\"x\": 1",
    ])
    func damagedPersonFileIsExit65(_ damage: String) throws {
        let sandbox = try CLISandbox()
        try storeWithPerson(sandbox, extra: damage)
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["list"])
        #expect(result.status == 65 || (result.status == 0 && damage.hasPrefix(#""note""#)), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }
}
