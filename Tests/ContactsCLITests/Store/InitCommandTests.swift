import Foundation
import Testing

/// Whether `git` is installed; the Git tests run only then.
let gitAvailable = installed("git")

@Suite struct InitCommandTests {
    @Test func initCreatesAStoreAndSaysWhere() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["init"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(sandbox.store.path(percentEncoded: false).trimmingSuffix("/")))
        #expect(FileManager.default.fileExists(atPath: sandbox.storeFile("store.json").path(percentEncoded: false)))
        #expect(try sandbox.succeed(["list"]).stdout.isEmpty)
    }

    @Test func initTakesTheFolderAsAnArgument() throws {
        let sandbox = try CLISandbox()
        try sandbox.succeed(["init", "elsewhere"])
        let folder = sandbox.root.appending(path: "elsewhere")
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "store.json").path(percentEncoded: false)))
    }

    @Test func initSaysHowToUseAStoreTheOtherCommandsWouldNotFind() throws {
        let sandbox = try CLISandbox()
        let elsewhere = try sandbox.succeed(["init", "elsewhere"])
        let folder = sandbox.root.appending(path: "elsewhere").path(percentEncoded: false)
        #expect(elsewhere.stderr.contains("--store \(folder)"))
        #expect(elsewhere.stderr.contains("CONTACTS_DIR=\(folder)"))
        // A store where the other commands look needs no such note.
        let here = try sandbox.succeed(["init"])
        #expect(here.stderr.isEmpty)
    }

    @Test func commandsRunInsideAStoreUseItBeforeCONTACTSDIR() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        try sandbox.succeed(["init", "household"])
        let household = sandbox.root.appending(path: "household")
        try sandbox.succeed(["--store", household.path(percentEncoded: false), "add", "--first", "Ada"])
        let people = household.appending(path: "people", directoryHint: .isDirectory)
        #expect(try sandbox.run(["list"], in: household).stdout.contains("Ada"))
        #expect(try sandbox.run(["list"], in: people).stdout.contains("Ada"))
        #expect(try sandbox.run(["list"]).stdout.contains("Kim"))
        // --store still says which store is meant, wherever the command runs.
        #expect(try sandbox.run(["--store", sandbox.store.path(percentEncoded: false), "list"], in: household).stdout.contains("Kim"))
    }

    @Test func anotherProgramsStoreJSONIsNotTakenForAStore() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        let project = sandbox.root.appending(path: "web-app", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data(#"{"reducers": ["cart"]}"#.utf8).write(to: project.appending(path: "store.json"))
        #expect(try sandbox.run(["list"], in: project).stdout.contains("Kim"))
    }

    @Test func initRefusesAnExistingStoreAndKeepsIt() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        let result = try sandbox.run(["init"])
        #expect(result.status == 1)
        #expect(try sandbox.succeed(["list"]).lines.count == 1)
    }

    @Test(.enabled(if: gitAvailable))
    func initGitMakesARepositoryAndConfiguresTheMergeDriverAndDiffHelper() throws {
        let sandbox = try CLISandbox()
        try sandbox.succeed(["init", "--git"])
        #expect(FileManager.default.fileExists(atPath: sandbox.storeFile(".git").path(percentEncoded: false)))
        let config = try String(contentsOf: sandbox.storeFile(".git/config"), encoding: .utf8)
        #expect(config.contains("[merge \"contacts\"]"))
        #expect(config.contains("driver = contacts merge-driver %O %A %B %P"))
        #expect(config.contains("name = PlainContacts record merge"))
        #expect(config.contains("[diff \"contacts\"]"))
        #expect(config.contains("textconv = contacts textconv"))
    }

    @Test(.enabled(if: gitAvailable))
    func gitSetupConfiguresAnExistingClone() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.run(["git-setup"]).status == 1)
        let status = try ChildProcess.run(
            ["git", "init", "--quiet", sandbox.store.path(percentEncoded: false)], environment: sandbox.baseEnvironment)
        try #require(status == 0)
        try sandbox.succeed(["git-setup"])
        let config = try String(contentsOf: sandbox.storeFile(".git/config"), encoding: .utf8)
        #expect(config.contains("driver = contacts merge-driver %O %A %B %P"))
    }

    /// What `.gitattributes` held before membership files and `store.json` merged with the driver.
    private let earlierAttributes = """
        # Membership files are sets of lines: a union merge never conflicts.
        groups/*.members merge=union text eol=lf
        # Records merge property by property once `contacts git-setup` has configured the driver;
        # without it Git falls back to its ordinary text merge.
        people/*.json merge=contacts diff=contacts text eol=lf
        groups/*.json merge=contacts diff=contacts text eol=lf
        store.json text eol=lf

        """

    @Test(.enabled(if: gitAvailable))
    func gitSetupUpdatesAnEarlierGitattributesButKeepsAnEditedOne() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let current = try String(contentsOf: sandbox.storeFile(".gitattributes"), encoding: .utf8)
        #expect(current.contains("groups/*.members merge=contacts"))
        #expect(current.contains("store.json merge=contacts"))
        let status = try ChildProcess.run(
            ["git", "init", "--quiet", sandbox.store.path(percentEncoded: false)], environment: sandbox.baseEnvironment)
        try #require(status == 0)

        try Data(earlierAttributes.utf8).write(to: sandbox.storeFile(".gitattributes"))
        try sandbox.succeed(["git-setup"])
        #expect(try String(contentsOf: sandbox.storeFile(".gitattributes"), encoding: .utf8) == current)

        let edited = earlierAttributes + "*.txt diff\n"
        try Data(edited.utf8).write(to: sandbox.storeFile(".gitattributes"))
        try sandbox.succeed(["git-setup"])
        #expect(try String(contentsOf: sandbox.storeFile(".gitattributes"), encoding: .utf8) == edited)
    }

    @Test(.enabled(if: gitAvailable))
    func initGitWithoutAGitIdentityLeavesAWorkingStoreThatTheNextCommitCompletes() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let anonymous = [
            "PATH": try git.environment["PATH"] ?? "", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "user.useConfigOnly", "GIT_CONFIG_VALUE_0": "true",
        ]
        let created = try sandbox.run(["init", "--git"], environment: anonymous)
        #expect(created.status == 0)
        #expect(try sandbox.succeed(["list"], environment: anonymous).stdout.isEmpty)
        #expect(try git.git(["rev-parse", "--verify", "--quiet", "HEAD"], in: sandbox.store, allowFailure: true).status != 0)

        try git.git(["config", "user.name", "Test Author"], in: sandbox.store)
        try git.git(["config", "user.email", "author@example.com"], in: sandbox.store)
        try sandbox.succeed(["add", "--first", "Katie", "--last", "Bell", "--commit"], environment: anonymous)
        try git.git(["clone", "--quiet", sandbox.store.path(percentEncoded: false), "copy"], in: sandbox.root)
        let copy = git.folder("copy").path(percentEncoded: false)
        #expect(try sandbox.succeed(["list"], environment: ["CONTACTS_DIR": copy]).lines.count == 1)
        #expect(try git.git(["status", "--porcelain"], in: sandbox.store).stdout.isEmpty)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
