import Foundation
import Testing

@Suite struct GlobalOptionsTests {
    @Test func versionPrintsTheVersion() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "contacts 0.1.0\n")
    }

    /// The network and XML libraries are the sync's and the server's; a store command starts
    /// without them (the dynamic loader lists every library it loads under `LD_DEBUG=libs`).
    @Test(arguments: [["--version"], ["list"]])
    func storeCommandsLoadNoNetworkLibrary(_ arguments: [String]) throws {
        let sandbox = try CLISandbox()
        _ = try sandbox.run(["init"])
        let result = try sandbox.run(arguments, environment: ["LD_DEBUG": "libs"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("libFoundation"), "the loader's list is missing")
        for library in ["libFoundationNetworking", "libFoundationXML", "libcurl", "libxml2"] {
            #expect(!result.stderr.contains(library), "\(library) loaded by contacts \(arguments.joined(separator: " "))")
        }
    }

    @Test func helpListsTheImplementedCommandsOnStandardOutput() throws {
        let sandbox = try CLISandbox()
        for arguments in [["--help"], ["help"], ["-h"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            for command in ["init", "add", "new", "show", "list", "search", "email", "pick", "set", "edit", "rm", "group", "import", "export", "resolve", "duplicates", "merge", "log", "watch", "doctor", "merge-driver", "textconv", "access", "completion"] {
                #expect(result.stdout.contains("\n  \(command) "), "\(command) missing from help")
            }
        }
    }

    static let commandPaths: [[String]] = [
        ["init"], ["git-setup"], ["add"], ["new"], ["show"], ["list"], ["search"], ["email"], ["pick"], ["set"], ["edit"], ["rm"],
        ["group"], ["group", "list"], ["group", "create"], ["group", "rename"], ["group", "rm"], ["group", "add"],
        ["group", "remove"], ["group", "members"], ["import"], ["export"], ["resolve"], ["duplicates"], ["merge"], ["log"], ["watch"],
        ["doctor"], ["merge-driver"], ["textconv"], ["access"], ["access", "status"], ["access", "list"],
        ["access", "grant"], ["access", "deny"], ["access", "reset"], ["completion"], ["help"],
    ]

    @Test(arguments: commandPaths)
    func everyCommandHasHelp(path: [String]) throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(path + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: contacts \(path.joined(separator: " "))"))
        let viaHelp = try sandbox.run(["help"] + path)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout == result.stdout)
    }

    @Test func noCommandIsAUsageError() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run([])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("contacts: "))
    }

    @Test(arguments: [["frobnicate"], ["group", "frobnicate"], ["list", "--frobnicate"], ["list", "--sort"], ["list", "--json=yes"], ["show"], ["list", "extra"], ["list", "--sort", "middle"], ["help", "frobnicate"]])
    func wrongCommandLinesExitWith64(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let result = try sandbox.run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("contacts: "))
    }

    @Test func storeOptionWorksBeforeAndAfterTheCommand() throws {
        let sandbox = try CLISandbox()
        let other = sandbox.root.appending(path: "other").path(percentEncoded: false)
        try sandbox.succeed(["--store", other, "init"])
        try sandbox.succeed(["add", "--first", "Before", "--store", other])
        try sandbox.succeed(["--store=\(other)", "add", "--first", "After"])
        let listed = try sandbox.succeed(["list", "--store", other, "--sort", "first"])
        #expect(listed.lines.map { $0.split(separator: "\t")[1] } == ["After", "Before"])
        #expect(try sandbox.run(["list"]).status == 66)
    }

    @Test func storeDefaultsToXDGDataHomeThenToTheHomeFolder() throws {
        let sandbox = try CLISandbox()
        let data = sandbox.root.appending(path: "data").path(percentEncoded: false)
        try sandbox.succeed(["init"], environment: ["CONTACTS_DIR": "", "XDG_DATA_HOME": data])
        #expect(FileManager.default.fileExists(atPath: data + "/contacts/store.json"))
        try sandbox.succeed(["init"], environment: ["CONTACTS_DIR": ""])
        #expect(FileManager.default.fileExists(
            atPath: sandbox.home.appending(path: ".local/share/contacts/store.json").path(percentEncoded: false)))
    }

    @Test(arguments: [["list"], ["show", "1"], ["add", "--first", "Kim"], ["group", "list"], ["access", "list"], ["git-setup"]])
    func aFolderWithoutAStoreIsExit66SuggestingInit(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(arguments)
        #expect(result.status == 66)
        #expect(result.stderr.contains("contacts init"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path(percentEncoded: false)))
    }

    @Test func aSaveWhileAnotherProcessHoldsTheLockIsExit75() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let lock = try StoreLockHolder(store: sandbox.store)
        let result = try sandbox.run(["--lock-timeout", "0.2", "add", "--first", "Kim"])
        #expect(result.status == 75)
        lock.release()
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
        try sandbox.add(["--first", "Kim"])
    }

    @Test func aReadWhileAnotherProcessSavesIsExit75WithTheEnvironmentTimeout() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        let lock = try StoreLockHolder(store: sandbox.store)
        defer { lock.release() }
        let result = try sandbox.run(["list"], environment: ["CONTACTS_LOCK_TIMEOUT": "0.1"])
        #expect(result.status == 75)
    }

    @Test(arguments: ["soon", "-1", "nan"])
    func aMalformedLockTimeoutIsAUsageError(value: String) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.run(["--lock-timeout", value, "list"]).status == 64)
        #expect(try sandbox.run(["list"], environment: ["CONTACTS_LOCK_TIMEOUT": value]).status == 64)
    }

    @Test(arguments: ["{ \"id\": ", "<<<<<<< ours\n{}\n=======\n{}\n>>>>>>> theirs\n", "[1, 2]"])
    func aMalformedRecordFileIsExit65NamingTheFile(contents: String) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try Data(contents.utf8).write(to: sandbox.storeFile("people/broken-abc234.json"))
        let result = try sandbox.run(["list"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("broken-abc234.json"))
    }
}
