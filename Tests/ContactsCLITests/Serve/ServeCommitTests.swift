import Foundation
import Synchronization
import PlainContacts
import Testing
@testable import contacts

/// Notes a commit step makes.
private final class Notes: Sendable {
    let lines = Mutex<[String]>([])
}

/// The commit of one change of `contacts serve`, made with Git's plumbing so that it holds the
/// bytes its change left, whatever was written since.
@Suite struct ServeCommitTests {
    /// A repository with a store in `book/`, and the path in the store of a person added to it
    /// (not committed).
    private func repositoryWithAPerson() throws -> (git: GitRepositories, repository: URL, id: String, file: String) {
        let git = GitRepositories(sandbox: try CLISandbox())
        let repository = try git.makeRepository("repo")
        let id = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        let status = try git.git(["status", "--porcelain", "--untracked-files=all"], in: repository).lines
        let file = try #require(status.first?.split(separator: " ").last.map { String($0.dropFirst("book/".count)) })
        return (git, repository, id, file)
    }

    private func commit(
        _ files: [(path: String, data: Data?)], _ headline: String, in repository: URL, git: GitRepositories, notes: Notes = Notes()
    ) throws -> ServeCommit {
        ServeCommit(
            store: git.store(repository), headline: headline, files: files, explicit: true, environment: try git.environment
        ) { line in notes.lines.withLock { $0.append(line) } }
    }

    private func bytes(_ file: String, in repository: URL, git: GitRepositories) throws -> Data {
        try Data(contentsOf: git.store(repository).appending(path: file))
    }

    @Test func eachCommitHoldsTheBytesItsChangeLeftWhateverWasWrittenSince() throws {
        let (git, repository, id, file) = try repositoryWithAPerson()
        let first = try bytes(file, in: repository, git: git)
        try git.succeed(["set", id, "note=second"], in: repository)
        let second = try bytes(file, in: repository, git: git)
        try git.succeed(["set", id, "note=third"], in: repository)

        try commit([(file, first)], "serve: PUT with TestPhone/1", in: repository, git: git).run()
        try commit([(file, second)], "serve: PUT with TestPhone/2", in: repository, git: git).run()

        let subjects = try git.git(["log", "--format=%s"], in: repository).lines
        #expect(subjects == ["contacts: serve: PUT with TestPhone/2", "contacts: serve: PUT with TestPhone/1", "Create the store"])
        #expect(Data(try git.git(["show", "HEAD~1:book/" + file], in: repository).stdout.utf8) == first)
        #expect(Data(try git.git(["show", "HEAD:book/" + file], in: repository).stdout.utf8) == second)
        #expect(try git.git(["log", "-1", "--format=%b", "HEAD~1"], in: repository).stdout.contains("contacts: add Katie Bell"))
        // The third version is the work tree's, not staged.
        #expect(try git.git(["status", "--porcelain"], in: repository).lines == [" M book/" + file])
    }

    @Test func aRemovalIsCommittedAsARemovalAndAChangeAlreadyCommittedMakesNoCommit() throws {
        let (git, repository, _, file) = try repositoryWithAPerson()
        let added = try bytes(file, in: repository, git: git)
        try commit([(file, added)], "serve: PUT", in: repository, git: git).run()
        try commit([(file, added)], "serve: PUT again", in: repository, git: git).run()
        try FileManager.default.removeItem(at: git.store(repository).appending(path: file))

        try commit([(file, nil)], "serve: DELETE", in: repository, git: git).run()

        #expect(try git.git(["log", "--format=%s"], in: repository).lines == ["contacts: serve: DELETE", "contacts: serve: PUT", "Create the store"])
        #expect(try git.git(["log", "-1", "--format=%b"], in: repository).stdout.contains("contacts: remove Katie Bell"))
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
    }

    @Test func aCommitWhoseIndexWasBusyIsFinishedWithoutASecondCommit() throws {
        let (git, repository, _, file) = try repositoryWithAPerson()
        let step = try commit([(file, try bytes(file, in: repository, git: git))], "serve: PUT", in: repository, git: git)
        let lock = repository.appending(path: ".git/index.lock")
        try Data().write(to: lock)

        #expect(throws: CLIError.self) { try step.run() }
        try FileManager.default.removeItem(at: lock)
        try step.run()

        #expect(try git.git(["log", "--format=%s"], in: repository).lines == ["contacts: serve: PUT", "Create the store"])
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
    }

    @Test func theFirstCommitOfARepositoryTakesTheStoresOwnFilesWithTheChange() throws {
        let git = GitRepositories(sandbox: try CLISandbox())
        let repository = git.folder("repo")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        try git.git(["init", "--quiet", "--initial-branch=main"], in: repository)
        try git.succeed(["init"], in: repository)
        try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        let people = git.store(repository).appending(path: "people").path(percentEncoded: false)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: people).first { $0.hasSuffix(".json") })

        try commit([("people/" + file, try bytes("people/" + file, in: repository, git: git))], "serve: PUT", in: repository, git: git).run()

        #expect(try git.git(["log", "--format=%s"], in: repository).lines == ["contacts: serve: PUT"])
        let committed = try git.git(["ls-tree", "-r", "--name-only", "HEAD"], in: repository).lines
        #expect(Set(committed) == Set(["book/people/" + file] + StoreRepository.skeletonPaths.map { "book/" + $0 }))
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
    }

    @Test func aStoreOutsideGitIsNotedAndNothingIsTried() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let notes = Notes()
        let step = ServeCommit(
            store: sandbox.store, headline: "serve: PUT", files: [("store.json", Data())], explicit: true,
            environment: ["GIT_CEILING_DIRECTORIES": sandbox.root.path(percentEncoded: false)]
        ) { line in notes.lines.withLock { $0.append(line) } }

        try step.run()

        #expect(notes.lines.withLock { $0 } == ["The store is not in a Git repository; nothing was committed."])
    }
}
