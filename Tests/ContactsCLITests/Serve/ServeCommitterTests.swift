import Foundation
import Synchronization
import Testing
@testable import contacts

/// What a committer reports and sees.
private final class Seen: Sendable {
    let lines = Mutex<[String]>([])
    let journalPresent = Mutex<[Bool]>([])
}

/// The changes a server saved and did not commit are written down in the store's journal, and the
/// next server started on the store commits them.
@Suite struct ServeCommitterTests {
    /// A repository with a store and a person added to it, not committed; the person's file.
    private func repositoryWithAPerson() throws -> (git: GitRepositories, repository: URL, file: String) {
        let git = GitRepositories(sandbox: try CLISandbox())
        let repository = try git.makeRepository("repo")
        let id = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        return (git, repository, try git.personFile(id, in: repository))
    }

    private func exists(_ file: URL) -> Bool {
        FileManager.default.fileExists(atPath: file.path(percentEncoded: false))
    }

    @Test func changesAServerLeftUncommittedAreCommittedByTheNextOne() throws {
        let (git, repository, file) = try repositoryWithAPerson()
        let journal = ServeCommitJournal(store: git.store(repository))
        try journal.append(.init(headline: "serve: PUT by kim with TestPhone/1", paths: [file]))
        let seen = Seen()

        let committer = ServeCommitter(store: git.store(repository), explicit: true, environment: try git.environment) { line in
            seen.lines.withLock { $0.append(line) }
        }
        committer.finish()

        let subjects = try git.git(["log", "--format=%s"], in: repository).lines
        #expect(subjects == ["contacts: serve: PUT by kim with TestPhone/1", "Create the store"])
        #expect(try git.git(["log", "-1", "--format=%b"], in: repository).stdout.contains("contacts: add Katie Bell"))
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
        #expect(!exists(journal.file))
        #expect(seen.lines.withLock { $0 }.first == "committing 1 change saved by a server that stopped before committing it")
    }

    @Test func theJournalStaysUntilItsChangeIsCommitted() throws {
        let (git, repository, file) = try repositoryWithAPerson()
        let journal = ServeCommitJournal(store: git.store(repository))
        try journal.append(.init(headline: "serve: PUT", paths: [file]))
        let lock = repository.appending(path: ".git/index.lock")
        try Data().write(to: lock)
        let seen = Seen()
        // Git fails while its index is locked; the queue's wait before the next try unlocks it.
        let queue = ServeGitQueue(wait: { _ in
            seen.journalPresent.withLock { $0.append(FileManager.default.fileExists(atPath: journal.file.path(percentEncoded: false))) }
            try? FileManager.default.removeItem(at: lock)
        }) { line in seen.lines.withLock { $0.append(line) } }

        let committer = ServeCommitter(store: git.store(repository), explicit: true, queue: queue, environment: try git.environment) { _ in }
        committer.finish()

        #expect(seen.journalPresent.withLock { $0 } == [true])
        #expect(try git.git(["log", "--format=%s"], in: repository).lines == ["contacts: serve: PUT", "Create the store"])
        #expect(!exists(journal.file))
    }

    @Test func aLineCutShortIsReportedAndTheOthersCommitted() throws {
        let (git, repository, file) = try repositoryWithAPerson()
        let journal = ServeCommitJournal(store: git.store(repository))
        try journal.append(.init(headline: "serve: PUT", paths: [file]))
        let handle = try FileHandle(forWritingTo: journal.file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"headline":"serve: PU"#.utf8))
        try handle.close()
        let seen = Seen()

        ServeCommitter(store: git.store(repository), explicit: true, environment: try git.environment) { line in
            seen.lines.withLock { $0.append(line) }
        }.finish()

        #expect(try git.git(["log", "--format=%s"], in: repository).lines == ["contacts: serve: PUT", "Create the store"])
        #expect(seen.lines.withLock { $0 }.first?.hasSuffix("1 line cannot be read and is left out") == true)
        #expect(!exists(journal.file))
    }

    @Test func aStoreWhoseChangesAreNotCommittedKeepsNoJournal() throws {
        let (git, repository, file) = try repositoryWithAPerson()
        let journal = ServeCommitJournal(store: git.store(repository))
        try journal.append(.init(headline: "serve: PUT", paths: [file]))

        ServeCommitter(store: git.store(repository), explicit: false, environment: try git.environment) { _ in }.finish()

        // Without --commit or autoCommit the journal is not read: nothing is committed.
        #expect(try git.git(["log", "--format=%s"], in: repository).lines == ["Create the store"])
        #expect(exists(journal.file))
    }
}
