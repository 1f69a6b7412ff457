import Foundation
import Testing

@Suite struct AutoCommitTests {
    private func subjects(_ git: GitRepositories, in repository: URL) throws -> [String] {
        try git.git(["log", "--format=%s"], in: repository).lines
    }

    @Test func theCommitFlagCommitsExactlyWhatTheCommandChanged() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("repo")
        try Data("unrelated\n".utf8).write(to: repository.appending(path: "notes.txt"))

        let id = try git.add(["--commit", "--first", "Katie", "--last", "Bell"], in: repository)
        #expect(try subjects(git, in: repository).first == "contacts: add Katie Bell")
        try git.succeed(["set", id, "jobTitle=Pilot", "--commit"], in: repository)
        #expect(try subjects(git, in: repository).first == "contacts: edit Katie Bell")

        let status = try git.git(["status", "--porcelain"], in: repository).lines
        #expect(status == ["?? notes.txt"])
    }

    @Test func theStoreSettingCommitsAfterEveryChangingCommand() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("repo")
        let manifest = git.store(repository).appending(path: "store.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "{\n", with: "{\n  \"autoCommit\": true,\n").utf8).write(to: manifest)
        try git.commitAll("Turn on automatic commits", in: repository)

        let katie = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        let john = try git.add(["--first", "John", "--last", "Appleseed"], in: repository)
        try git.succeed(["group", "create", "Friends"], in: repository)
        try git.succeed(["group", "add", "Friends", katie, john], in: repository)
        try git.succeed(["list"], in: repository)
        try git.succeed(["rm", john], in: repository)

        #expect(try subjects(git, in: repository).prefix(5) == [
            "contacts: remove John Appleseed; edit group Friends",
            "contacts: edit group Friends",
            "contacts: add group Friends",
            "contacts: add John Appleseed",
            "contacts: add Katie Bell",
        ])
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
    }

    @Test func removingAPersonGitNeverSawCommitsNothingAndFailsNothing() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("repo")
        let id = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        let result = try git.contacts(["--commit", "rm", id], in: repository)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(try subjects(git, in: repository) == ["Create the store"])
    }

    @Test func outsideGitTheChangeIsSavedAndNothingIsCommitted() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let result = try sandbox.run(["--commit", "add", "--first", "Katie"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("not in a Git repository"))
        #expect(try sandbox.succeed(["list"]).lines.count == 1)
    }
}
