import Foundation
import Glibc
import Testing

@Suite struct RemoteCommandTests {
    /// A sandbox with a store.
    private func storeSandbox() throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        return sandbox
    }

    /// The permission bits of a file or folder.
    private func mode(of url: URL) throws -> mode_t {
        var info = stat()
        try #require(stat(url.path(percentEncoded: false), &info) == 0)
        return info.st_mode & 0o777
    }

    @Test func addListAndRemoveRemotes() throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed([
            "remote", "add", "fastmail", "https://dav.example.com/kim/", "--user", "kim", "--password-command",
            "pass show dav", "--no-discover",
        ])
        let added = try sandbox.succeed(["remote", "add", "local", "http://127.0.0.1:5232/kim/contacts/", "--no-discover"])

        #expect(added.stderr == "Added remote \"local\": http://127.0.0.1:5232/kim/contacts/; `contacts sync` syncs it.\n")
        #expect(
            try sandbox.succeed(["remote", "list"]).lines == [
                "fastmail\thttps://dav.example.com/kim/\tkim\tcommand",
                "local\thttp://127.0.0.1:5232/kim/contacts/\t\tnone",
            ])
        try sandbox.succeed(["remote", "rm", "fastmail"])
        #expect(try sandbox.succeed(["remote", "list"]).lines == ["local\thttp://127.0.0.1:5232/kim/contacts/\t\tnone"])
        try sandbox.succeed(["remote", "rm", "local"])
        #expect(try sandbox.succeed(["remote", "list"]).stdout.isEmpty)
    }

    @Test func remoteWithoutASubcommandLists() throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed(["remote", "add", "dav", "https://dav.example.com/kim/", "--no-discover"])

        let listed = try sandbox.succeed(["remote", "list"]).stdout
        #expect(try sandbox.succeed(["remote"]).stdout == listed)
        #expect(try sandbox.succeed(["remote", "--json"]).stdout == sandbox.succeed(["remote", "list", "--json"]).stdout)
        #expect(try sandbox.run(["remote", "--help"]).status == 0)
    }

    @Test func listAsJSONGivesTheSameAsObjects() throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed(["remote", "add", "dav", "https://dav.example.com/kim/", "--user", "kim", "--no-discover"])
        try sandbox.succeed(["remote", "add", "open", "https://open.example.com/", "--no-discover"])

        let text = try sandbox.succeed(["remote", "list", "--json"], environment: ["CONTACTS_REMOTE_PASSWORD": "x"]).stdout
        let remotes = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: String]])
        #expect(
            remotes == [
                ["name": "dav", "url": "https://dav.example.com/kim/", "user": "kim", "passwordSource": "environment"],
                ["name": "open", "url": "https://open.example.com/", "passwordSource": "none"],
            ])
    }

    @Test func thePasswordSourceFollowsTheOrderOfThePasswordLookup() throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed(["remote", "add", "cmd", "https://a.example.com/", "--user", "kim", "--password-command", "echo pw", "--no-discover"])
        try sandbox.succeed(["remote", "add", "ask", "https://b.example.com/", "--user", "kim", "--no-discover"])

        let sources = { (environment: [String: String]) in
            try sandbox.succeed(["remote", "list"], environment: environment).lines.map { $0.split(separator: "\t").last ?? "" }
        }
        #expect(try sources([:]) == ["prompt", "command"])
        #expect(try sources(["CONTACTS_REMOTE_PASSWORD": "secret"]) == ["environment", "command"])
        #expect(!(try sandbox.succeed(["remote", "list", "--json"]).stdout.contains("echo pw")))
    }

    @Test func bookNamesTheAddressBookInsideTheURL() throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed(["remote", "add", "dav", "https://dav.example.com/addressbooks/kim", "--book", "work", "--no-discover"])

        #expect(try sandbox.succeed(["remote"]).lines == ["dav\thttps://dav.example.com/addressbooks/kim/work/\t\tnone"])
        #expect(try sandbox.run(["remote", "add", "bad", "https://dav.example.com/", "--book", "a/b", "--no-discover"]).status == 64)
    }

    @Test func addingATakenNameExits64AndKeepsTheFirst() throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed(["remote", "add", "dav", "https://one.example.com/", "--no-discover"])

        #expect(try sandbox.run(["remote", "add", "dav", "https://two.example.com/", "--no-discover"]).status == 64)
        #expect(try sandbox.succeed(["remote"]).lines == ["dav\thttps://one.example.com/\t\tnone"])
    }

    @Test(arguments: [
        ["remote", "add", ".hidden", "https://dav.example.com/", "--no-discover"],
        ["remote", "add", "a/b", "https://dav.example.com/", "--no-discover"],
        ["remote", "add", String(repeating: "x", count: 65), "https://dav.example.com/", "--no-discover"],
        ["remote", "add", "dav", "ftp://dav.example.com/", "--no-discover"],
        ["remote", "add", "dav", "dav.example.com", "--no-discover"],
        ["remote", "add", "dav", "https://kim:secret@dav.example.com/", "--no-discover"],
        ["remote", "add", "dav", "https://dav.example.com/", "--password-command", "echo pw", "--no-discover"],
        ["remote", "add", "dav", "https://dav.example.com/", "--user", "", "--no-discover"],
        ["remote", "add", "dav", "--no-discover"],
    ])
    func aWrongCommandLineExits64AndWritesNothing(arguments: [String]) throws {
        let sandbox = try storeSandbox()

        #expect(try sandbox.run(arguments).status == 64)
        #expect(!FileManager.default.fileExists(atPath: sandbox.storeFile(".contacts/remotes.json").path(percentEncoded: false)))
    }

    @Test(arguments: ["nope", "../up", ""])
    func removingAnUnknownRemoteExits66(name: String) throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed(["remote", "add", "dav", "https://one.example.com/", "--no-discover"])

        #expect(try sandbox.run(["remote", "rm", name]).status == 66)
        #expect(try sandbox.succeed(["remote"]).lines.count == 1)
    }

    @Test func removingARemoteRemovesItsSyncStatus() throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed(["remote", "add", "dav", "https://one.example.com/", "--no-discover"])
        let status = sandbox.storeFile(".contacts/sync/dav")
        try FileManager.default.createDirectory(at: status, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: status.appending(path: "status.json"))

        try sandbox.succeed(["remote", "rm", "dav"])

        #expect(try sandbox.storeFiles(in: ".contacts/sync").isEmpty)
    }

    @Test func withoutAStoreEverySubcommandExits66() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["remote"]).status == 66)
        #expect(try sandbox.run(["remote", "add", "dav", "https://one.example.com/", "--no-discover"]).status == 66)
        #expect(try sandbox.run(["remote", "rm", "dav"]).status == 66)
    }

    @Test func aDamagedSettingsFileExits65AndIsKept() throws {
        let sandbox = try storeSandbox()
        try sandbox.succeed(["remote", "add", "dav", "https://one.example.com/", "--no-discover"])
        let file = sandbox.storeFile(".contacts/remotes.json")
        try Data(#"{"remotes": {"dav": {}}}"#.utf8).write(to: file)

        #expect(try sandbox.run(["remote"]).status == 65)
        #expect(try sandbox.run(["remote", "add", "other", "https://two.example.com/", "--no-discover"]).status == 65)
        #expect(try sandbox.run(["remote", "rm", "dav"]).status == 65)
        #expect(try String(contentsOf: file, encoding: .utf8) == #"{"remotes": {"dav": {}}}"#)
    }

    @Test func theSettingsArePrivateAndOutsideTheSharedFiles() throws {
        let sandbox = try storeSandbox()
        let before = try sandbox.snapshot()

        try sandbox.succeed(["remote", "add", "dav", "https://one.example.com/", "--user", "kim", "--no-discover"])

        #expect(try sandbox.snapshot() == before)
        #expect(try mode(of: sandbox.storeFile(".contacts")) == 0o700)
        #expect(try mode(of: sandbox.storeFile(".contacts/remotes.json")) == 0o600)
    }

    @Test func plainHTTPToAnotherMachineWarns() throws {
        let sandbox = try storeSandbox()

        let clear = try sandbox.succeed(["remote", "add", "clear", "http://dav.example.com/", "--user", "kim", "--no-discover"])
        let loopback = try sandbox.succeed(["remote", "add", "local", "http://localhost:5232/", "--user", "kim", "--no-discover"])
        let secure = try sandbox.succeed(["remote", "add", "secure", "https://dav.example.com/", "--user", "kim", "--no-discover"])

        #expect(clear.stderr.contains("warning: http://dav.example.com/ is plain http"))
        #expect(!loopback.stderr.contains("warning"))
        #expect(!secure.stderr.contains("warning"))
    }

    @Test func gitAddAllDoesNotPickUpARemote() throws {
        let repositories = GitRepositories(sandbox: try CLISandbox())
        let repository = try repositories.makeRepository("a")
        try repositories.succeed(
            ["remote", "add", "dav", "https://dav.example.com/", "--user", "kim", "--password-command", "pass show dav", "--no-discover"],
            in: repository)

        try repositories.git(["add", "-A"], in: repository)

        #expect(try repositories.git(["status", "--porcelain", "--untracked-files=all"], in: repository).stdout.isEmpty)
        #expect(!(try repositories.git(["ls-files"], in: repository).stdout.contains(".contacts")))
    }
}
