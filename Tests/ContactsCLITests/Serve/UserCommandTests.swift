import Foundation
import Glibc
import PlainContacts
@testable import PlainContactsDAV
import Testing

/// The iteration count the debug binary hashes with in these tests (see `UserCommand`).
private let testIterations = ["CONTACTS_TEST_PASSWORD_ITERATIONS": "1000"]

extension CLISandbox {
    /// Runs `contacts user …` with a cheap iteration count and `input` on standard input.
    @discardableResult
    fileprivate func user(_ arguments: [String], input: String? = nil) throws -> CLIResult {
        try run(["user"] + arguments, environment: testIterations, input: input)
    }

    /// The store's accounts as the library reads them.
    fileprivate var accounts: ServerUsersFile {
        ServerUsersFile(storeURL: store, hashIterations: 1_000, minimumIterations: 1_000)
    }

    /// Whether `password` is the stored password of `user`.
    fileprivate func verifies(_ user: String, _ password: String) throws -> Bool {
        try accounts.passwordHashes()[try ServerUserName(user)]?.verify(password) == true
    }

    /// The users file, or `nil` when there is none.
    fileprivate var usersFileText: String? {
        try? String(contentsOf: storeFile(".contacts/users.json"), encoding: .utf8)
    }
}

/// A sandbox with a store.
private func storeSandbox() throws -> CLISandbox {
    let sandbox = try CLISandbox()
    try sandbox.initStore()
    return sandbox
}

@Suite struct UserCommandTests {
    @Test func addListAndRemoveUsers() throws {
        let sandbox = try storeSandbox()

        #expect(try sandbox.user(["add", "lee"], input: "cobol-pw\n").status == 0)
        #expect(try sandbox.user(["add", "kim@example.org"], input: "engine-pw\n").status == 0)
        #expect(try sandbox.user(["list"]).lines == ["kim@example.org\tpbkdf2-sha256\t1000\tcontacts", "lee\tpbkdf2-sha256\t1000\tcontacts"])
        #expect(try sandbox.verifies("lee", "cobol-pw"))
        #expect(try sandbox.verifies("kim@example.org", "engine-pw"))

        #expect(try sandbox.user(["rm", "lee"]).status == 0)
        #expect(try sandbox.user(["list"]).lines == ["kim@example.org\tpbkdf2-sha256\t1000\tcontacts"])
        #expect(try sandbox.user(["rm", "kim@example.org"]).status == 0)
        #expect(try sandbox.user(["list"]).stdout.isEmpty)
        #expect(sandbox.usersFileText == nil)
    }

    @Test func booksAreGrantedByFolderOrNameListedInOrderAndRevoked() throws {
        let sandbox = try storeSandbox()
        let family = sandbox.root.appending(path: "family", directoryHint: .isDirectory)
        #expect(try sandbox.run(["--store", family.path(percentEncoded: false), "init"]).status == 0)

        // The sandbox's commands run in its root, where the family's store is ./family.
        #expect(try sandbox.user(["add", "kim", "--book", "contacts", "--book", "./family"], input: "pw\n").status == 0)
        #expect(try sandbox.user(["add", "tablet", "--book", "family", "--read-only"], input: "pw\n").status == 0)
        #expect(try sandbox.user(["add", "lee"], input: "pw\n").status == 0)
        #expect(try sandbox.user(["grant", "lee", "family", "--read-only", "--first"]).status == 0)
        #expect(try sandbox.user(["list"]).lines == [
            "kim\tpbkdf2-sha256\t1000\tcontacts, family", "lee\tpbkdf2-sha256\t1000\tfamily (read-only), contacts",
            "tablet\tpbkdf2-sha256\t1000\tfamily (read-only)",
        ])
        let json = try sandbox.user(["list", "--json"]).stdout
        #expect(json.contains("\"access\": \"read\"") && json.contains("\"book\": \"family\""))

        #expect(try sandbox.user(["revoke", "lee", "contacts"]).status == 0)
        #expect(try sandbox.user(["list"]).lines.contains("lee\tpbkdf2-sha256\t1000\tfamily (read-only)"))

        // Mistakes are refused with their exit status, and change nothing.
        let before = sandbox.usersFileText
        let notAStore = sandbox.root.appending(path: "empty", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: notAStore, withIntermediateDirectories: true)
        let refused: [([String], Int32)] = [
            (["grant", "lee", "nowhere"], 66), (["grant", "nobody", "family"], 66), (["revoke", "lee", "contacts"], 66),
            (["grant", "lee", "bad name"], 64), (["grant", "lee", "work=./empty"], 66), (["add", "max", "--read-only"], 64),
            (["grant", "lee", "other=./family"], 64),
        ]
        for (arguments, status) in refused {
            let result = try sandbox.user(arguments, input: "pw\n")
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.isEmpty)
        }
        #expect(sandbox.usersFileText == before)
    }

    @Test func userWithoutASubcommandLists() throws {
        let sandbox = try storeSandbox()
        try sandbox.user(["add", "kim"], input: "pw\n")

        #expect(try sandbox.user([]).stdout == sandbox.user(["list"]).stdout)
        #expect(try sandbox.user(["--json"]).stdout == sandbox.user(["list", "--json"]).stdout)
        #expect(try sandbox.run(["user", "--help"]).status == 0)
    }

    @Test func listAsJSONGivesNameAlgorithmAndIterations() throws {
        let sandbox = try storeSandbox()
        try sandbox.user(["add", "kim"], input: "pw\n")

        let text = try sandbox.user(["list", "--json"]).stdout
        let users = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(users.count == 1)
        #expect(users.first?["name"] as? String == "kim")
        #expect(users.first?["algorithm"] as? String == "pbkdf2-sha256")
        #expect(users.first?["iterations"] as? Int == 1000)
        #expect(try sandbox.user(["list", "--json"], input: nil).stdout.contains("$") == false)
    }

    @Test func thePasswordIsTheFirstLineOfStandardInputWithoutItsLineEnd() throws {
        let sandbox = try storeSandbox()

        #expect(try sandbox.user(["add", "kim"], input: "pass word:1\r\nsecond line\n").status == 0)
        #expect(try sandbox.user(["add", "lee"], input: "no line end").status == 0)

        #expect(try sandbox.verifies("kim", "pass word:1"))
        #expect(try sandbox.verifies("lee", "no line end"))
    }

    @Test func thePasswordIsStoredOnlyAsASaltedHashInAPrivateFile() throws {
        let sandbox = try storeSandbox()
        try sandbox.user(["add", "kim"], input: "correct horse battery staple\n")

        let text = try #require(sandbox.usersFileText)
        #expect(!text.contains("correct horse"))
        #expect(text.contains("\"passwordHash\": \"pbkdf2-sha256$1000$"))
        var info = stat()
        #expect(stat(sandbox.storeFile(".contacts/users.json").path(percentEncoded: false), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try sandbox.snapshot().keys.allSatisfy { !$0.contains("users") })
    }

    @Test func aTakenNameIsRefusedWith64UnlessReplacing() throws {
        let sandbox = try storeSandbox()
        try sandbox.user(["add", "kim"], input: "first\n")
        let before = sandbox.usersFileText

        let refused = try sandbox.user(["add", "kim"], input: "second\n")
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--replace"))
        #expect(sandbox.usersFileText == before)

        let replaced = try sandbox.user(["add", "kim", "--replace"], input: "second\n")
        #expect(replaced.status == 0)
        #expect(replaced.stderr.contains("Replaced"))
        #expect(try sandbox.verifies("kim", "second"))
        #expect(try !sandbox.verifies("kim", "first"))
    }

    @Test func replacingAMissingUserAddsIt() throws {
        let sandbox = try storeSandbox()

        let result = try sandbox.user(["add", "kim", "--replace"], input: "pw\n")

        #expect(result.status == 0)
        #expect(result.stderr.contains("Added"))
        #expect(try sandbox.verifies("kim", "pw"))
    }

    @Test(arguments: ["", "kim:lee", "kim lee", "kim\u{1}", "kim\u{1B}[2J", "-kim", "kïm"])
    func anInvalidNameIsAUsageErrorThatWritesNothing(name: String) throws {
        let sandbox = try storeSandbox()

        let result = try sandbox.user(["add", name], input: "pw\n")

        #expect(result.status == 64)
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{1}"))
        #expect(sandbox.usersFileText == nil)
    }

    @Test(arguments: ["\n", "\r\n", ""])
    func anEmptyPasswordIsRefusedWith65(input: String) throws {
        let sandbox = try storeSandbox()

        #expect(try sandbox.user(["add", "kim"], input: input).status == 65)
        #expect(try sandbox.user(["add", "lee"]).status == 65)
        #expect(sandbox.usersFileText == nil)
    }

    @Test func anOverlongPasswordIsRefusedWith65() throws {
        let sandbox = try storeSandbox()
        let longest = String(repeating: "x", count: ServerUsersFile.maximumPasswordLength)

        #expect(try sandbox.user(["add", "kim"], input: longest + "x\n").status == 65)
        #expect(sandbox.usersFileText == nil)
        #expect(try sandbox.user(["add", "kim"], input: longest + "\r\n").status == 0)
        #expect(try sandbox.verifies("kim", longest))
    }

    @Test func aPasswordThatIsNotUTF8IsRefusedWith65() throws {
        let sandbox = try storeSandbox()
        let input = sandbox.root.appending(path: "latin1-password")
        try Data([0x70, 0xE9, 0x0A]).write(to: input)

        var environment = sandbox.baseEnvironment
        environment.merge(testIterations) { $1 }
        let status = try ChildProcess.run(
            [try ContactsBinary.url().path(percentEncoded: false), "user", "add", "kim"], environment: environment,
            input: input.path(percentEncoded: false))

        #expect(status == 65)
        #expect(sandbox.usersFileText == nil)
    }

    @Test func removingAMissingUserIs66() throws {
        let sandbox = try storeSandbox()
        try sandbox.user(["add", "kim"], input: "pw\n")

        #expect(try sandbox.user(["rm", "lee"]).status == 66)
        let invalid = try sandbox.user(["rm", "secret:password"])
        #expect(invalid.status == 66)
        #expect(!invalid.stderr.contains("secret"))
        #expect(try sandbox.user(["list"]).lines.count == 1)
    }

    @Test func aDamagedUsersFileIs65AndNamesTheFile() throws {
        let sandbox = try storeSandbox()
        try FileManager.default.createDirectory(at: sandbox.storeFile(".contacts"), withIntermediateDirectories: true)
        try Data("{\"users\": [".utf8).write(to: sandbox.storeFile(".contacts/users.json"))

        for arguments in [["list"], ["rm", "kim"]] {
            let result = try sandbox.user(arguments)
            #expect(result.status == 65)
            #expect(result.stderr.contains(".contacts/users.json"))
        }
        #expect(try sandbox.user(["add", "kim"], input: "pw\n").status == 65)
        #expect(sandbox.usersFileText == "{\"users\": [")
    }

    @Test func outsideAStoreTheCommandsAre66() throws {
        let sandbox = try CLISandbox()

        #expect(try sandbox.user(["list"]).status == 66)
        #expect(try sandbox.user(["add", "kim"], input: "pw\n").status == 66)
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path(percentEncoded: false)))
    }
}

/// `user add` at a terminal, driven through tmux.
@Suite(.serialized, .enabled(if: tmuxAvailable))
struct UserPasswordPromptTests {
    @Test func thePasswordIsAskedTwiceWithoutEcho() throws {
        let sandbox = try storeSandbox()
        let session = try TmuxSession(sandbox: sandbox, arguments: ["user", "add", "kim"], environment: testIterations)
        try session.waitForScreen(containing: "New password for user kim:")
        try session.type("s3cret-typed")
        try session.press("Enter")
        try session.waitForScreen(containing: "The same password again:")
        try session.type("s3cret-typed")
        try session.press("Enter")

        let outcome = try session.waitForExit()
        #expect(outcome.status == 0)
        #expect(!(try session.screen().contains("s3cret")))
        #expect(try sandbox.verifies("kim", "s3cret-typed"))
    }

    @Test func twoDifferentAnswersAre65AndWriteNothing() throws {
        let sandbox = try storeSandbox()
        let session = try TmuxSession(sandbox: sandbox, arguments: ["user", "add", "kim"], environment: testIterations)
        try session.waitForScreen(containing: "New password for user kim:")
        try session.type("first")
        try session.press("Enter")
        try session.waitForScreen(containing: "The same password again:")
        try session.type("second")
        try session.press("Enter")

        #expect(try session.waitForExit().status == 65)
        #expect(try session.screen().contains("differ"))
        #expect(sandbox.usersFileText == nil)
    }

    @Test func endOfInputCancelsWith1() throws {
        let sandbox = try storeSandbox()
        let session = try TmuxSession(sandbox: sandbox, arguments: ["user", "add", "kim"], environment: testIterations)
        try session.waitForScreen(containing: "New password for user kim:")
        try session.press("C-d")

        #expect(try session.waitForExit().status == 1)
        #expect(sandbox.usersFileText == nil)
    }
}
