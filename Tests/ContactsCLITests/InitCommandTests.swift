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
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
