import DAVTestSupport
import Foundation
import Synchronization
import Testing
@testable import contacts

/// The lines a committer and its pusher logged.
private final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
}

/// A store in a repository whose `origin` is a bare repository, the Git host of the tests.
private struct PushedStore {
    let git: GitRepositories
    let repository: URL
    let origin: URL

    init() throws {
        git = GitRepositories(sandbox: try CLISandbox())
        repository = try git.makeRepository("server")
        try git.succeed(["git-setup"], in: repository)
        origin = try git.bareClone(repository, as: "origin.git")
        try git.git(["remote", "add", "origin", origin.path(percentEncoded: false)], in: repository)
        try git.git(["fetch", "--quiet", "origin"], in: repository)
        try git.git(["branch", "--quiet", "--set-upstream-to=origin/main"], in: repository)
    }

    var store: URL { git.store(repository) }

    /// Writes `count` people and notes their changes in the store's journal, as a server that
    /// saved them and stopped before committing would; gives the commits' subjects, newest first.
    @discardableResult
    func journalChanges(_ count: Int, from first: Int = 0) throws -> [String] {
        let journal = ServeCommitJournal(store: store)
        var subjects: [String] = []
        for index in first..<(first + count) {
            let path = "people/person-\(index)-abcdef.json"
            let record = "{\n  \"firstName\": \"Person\",\n  \"id\": \(1000 + index),\n  \"lastName\": \"Number \(index)\"\n}\n"
            try Data(record.utf8).write(to: store.appending(path: path))
            try journal.append(.init(headline: "serve: PUT change \(index)", paths: [path]))
            subjects.insert("contacts: serve: PUT change \(index)", at: 0)
        }
        return subjects
    }

    /// The subjects of the commits of `main` on the host, newest first.
    func hostSubjects() throws -> [String] {
        try git.git(["log", "--format=%s", "main"], in: origin).lines
    }

    /// A committer that pushes (told so by `push`, as `--push` does, or else by the store),
    /// with retries a few milliseconds apart.
    func committer(queue: ServeGitQueue? = nil, push: Bool = true, log: LogLines) throws -> ServeCommitter {
        let environment = try git.environment
        return ServeCommitter(
            store: store, explicit: push, push: push, queue: queue, environment: environment,
            makePusher: { store, commits in
                ServePusher(
                    store: store, commits: commits, environment: environment, firstRetryDelay: .milliseconds(50),
                    longestRetryDelay: .milliseconds(200)) { log.append($0) }
            }
        ) { log.append($0) }
    }

    /// Waits until `condition` holds, giving up after two minutes (a failure, not a measurement).
    func eventually(_ condition: () throws -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}

@Suite(.serialized) struct ServePusherTests {
    @Test func aBurstOfCommitsIsPushedInOrder() throws {
        let fixture = try PushedStore()
        let subjects = try fixture.journalChanges(50)
        let log = LogLines()

        let committer = try fixture.committer(log: log)
        #expect(try fixture.eventually { try fixture.hostSubjects().count == 51 })
        committer.finish()

        #expect(try fixture.hostSubjects() == subjects + ["Create the store"])
        #expect(try fixture.git.git(["log", "--format=%s", "main"], in: fixture.repository).lines == subjects + ["Create the store"])
        #expect(!log.contains("push failed"))
    }

    @Test func aHangingPushHoldsBackNoCommit() throws {
        let fixture = try PushedStore()
        let release = fixture.git.sandbox.root.appending(path: "release")
        let script = fixture.git.sandbox.root.appending(path: "hanging-receive-pack")
        let text = "#!/bin/sh\nwhile [ ! -e '\(release.path(percentEncoded: false))' ]; do sleep 0.05; done\nexec git receive-pack \"$@\"\n"
        try Data(text.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path(percentEncoded: false))
        try fixture.git.git(["config", "remote.origin.receivepack", script.path(percentEncoded: false)], in: fixture.repository)
        let subjects = try fixture.journalChanges(50)
        let log = LogLines()
        let queue = ServeGitQueue { log.append($0) }

        let committer = try fixture.committer(queue: queue, log: log)
        // Every commit is made while the host holds the first push.
        #expect(queue.drain(patience: .seconds(120)))
        #expect(try fixture.git.git(["log", "--format=%s", "main"], in: fixture.repository).lines == subjects + ["Create the store"])
        #expect(try fixture.hostSubjects() == ["Create the store"])

        try Data().write(to: release)
        #expect(try fixture.eventually { try fixture.hostSubjects().count == 51 })
        committer.finish()
        #expect(try fixture.hostSubjects() == subjects + ["Create the store"])
        // The first push waited for the host; none failed.
        #expect(!log.contains("push failed"))
    }

    @Test func fiftyClientWritesToServePushAreAnsweredWhileThePushHangsThenPushedInOrder() throws {
        let fixture = try PushedStore()
        let release = fixture.git.sandbox.root.appending(path: "release")
        let script = fixture.git.sandbox.root.appending(path: "hanging-receive-pack")
        let text = "#!/bin/sh\nwhile [ ! -e '\(release.path(percentEncoded: false))' ]; do sleep 0.05; done\nexec git receive-pack \"$@\"\n"
        try Data(text.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path(percentEncoded: false))
        try fixture.git.git(["config", "remote.origin.receivepack", script.path(percentEncoded: false)], in: fixture.repository)
        var environment = try fixture.git.environment
        environment["CONTACTS_DIR"] = fixture.store.path(percentEncoded: false)
        let server = try ServeProcess(sandbox: fixture.git.sandbox, arguments: ["--push"], environment: environment)
        let connection = RawHTTPConnection(port: server.port)

        for index in 0..<50 {
            let card = ["BEGIN:VCARD", "VERSION:3.0", "UID:p\(index)", "FN:Person \(index)", "N:\(index);Person;;;", "END:VCARD"]
            let created = try connection.send(
                "PUT", "/me/contacts/p\(index).vcf", headers: ["Content-Type": "text/vcard", "If-None-Match": "*"],
                body: Data((card.joined(separator: "\r\n") + "\r\n").utf8))
            #expect(created.status == 201)
        }
        // Every write was answered while the host held the first push.
        #expect(try fixture.hostSubjects() == ["Create the store"])
        try Data().write(to: release)
        #expect(try fixture.eventually { try fixture.hostSubjects().count == 51 })
        let stopped = try server.stop()

        #expect(stopped.status == 0)
        let bodies = try fixture.git.git(["log", "--reverse", "--format=%b%x00", "main"], in: fixture.origin).stdout
            .split(separator: "\0").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        #expect(bodies == (0..<50).map { "contacts: add Person \($0)" })
    }

    @Test func aRemoteThatMovedIsMergedNeverForced() throws {
        let fixture = try PushedStore()
        let laptop = try fixture.git.clone(fixture.origin, as: "laptop")
        try fixture.git.add(["--first", "Katie", "--last", "Bell"], in: laptop)
        try fixture.git.commitAll("Add Katie on the laptop", in: laptop)
        try fixture.git.git(["push", "--quiet", "origin", "main"], in: laptop)
        let laptopCommit = try fixture.git.git(["rev-parse", "HEAD"], in: laptop).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try fixture.journalChanges(1)
        let log = LogLines()

        let committer = try fixture.committer(log: log)
        #expect(try fixture.eventually { try fixture.hostSubjects().contains("contacts: serve: PUT change 0") })
        committer.finish()

        let host = try fixture.hostSubjects()
        #expect(host.first == "contacts: merge origin/main")
        #expect(host.contains("Add Katie on the laptop"))
        #expect(try fixture.git.git(["merge-base", "--is-ancestor", laptopCommit, "main"], in: fixture.origin, allowFailure: true).status == 0)
        #expect(log.contains("merging them, then pushing again"))
        // The server's store now has the laptop's person.
        #expect(try fixture.git.succeed(["search", "Katie"], in: fixture.repository).stdout.contains("Katie Bell"))
    }

    @Test func aRemoteThatIsDownIsRetriedAndReported() throws {
        let fixture = try PushedStore()
        let host = fixture.origin.path(percentEncoded: false)
        try fixture.git.git(["remote", "set-url", "origin", host + "-down"], in: fixture.repository)
        try fixture.journalChanges(2)
        let log = LogLines()

        let committer = try fixture.committer(log: log)
        #expect(try fixture.eventually { log.contains("push failed") && log.contains("2 commits not pushed to origin since") })
        let doctor = try fixture.git.contacts(["doctor"], in: fixture.repository)
        #expect(doctor.stdout.contains("2 commits not pushed to origin since"))
        #expect(doctor.stdout.contains("git push to origin"))
        #expect(ServePushReport(store: fixture.store).reason != nil)

        try fixture.git.git(["remote", "set-url", "origin", host], in: fixture.repository)
        #expect(try fixture.eventually { try fixture.hostSubjects().count == 3 })
        committer.finish()
        #expect(try fixture.eventually { log.contains("pushed to the remote after") })
        #expect(ServePushReport(store: fixture.store).reason == nil)
        #expect(!(try fixture.git.contacts(["doctor"], in: fixture.repository)).stdout.contains("not pushed"))
    }

    @Test func commitsNotPushedBeforeARestartArePushedByTheNextServer() throws {
        let fixture = try PushedStore()
        let host = fixture.origin.path(percentEncoded: false)
        try fixture.git.git(["remote", "set-url", "origin", host + "-down"], in: fixture.repository)
        let subjects = try fixture.journalChanges(3)
        let firstLog = LogLines()

        let first = try fixture.committer(log: firstLog)
        #expect(try fixture.eventually { firstLog.contains("push failed") })
        first.finish()
        #expect(firstLog.contains("3 commits not pushed to origin since"))
        #expect(firstLog.contains("the next server started on the store pushes them"))

        try fixture.git.git(["remote", "set-url", "origin", host], in: fixture.repository)
        let secondLog = LogLines()
        let second = try fixture.committer(log: secondLog)
        #expect(try fixture.eventually { try fixture.hostSubjects().count == 4 })
        second.finish()
        #expect(try fixture.hostSubjects() == subjects + ["Create the store"])
    }

    @Test func autoPushInStoreJSONCommitsAndPushesWithoutFlags() throws {
        let fixture = try PushedStore()
        let manifest = fixture.store.appending(path: "store.json")
        var fields = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        fields["autoPush"] = true
        try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]).write(to: manifest)
        let subjects = try fixture.journalChanges(2)
        let log = LogLines()

        let committer = try fixture.committer(push: false, log: log)
        #expect(try fixture.eventually { try fixture.hostSubjects().count == 3 })
        committer.finish()
        #expect(try fixture.hostSubjects() == subjects + ["Create the store"])
    }

    @Test func theReportNamesTheCountTheRemoteAndTheTime() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let since = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 28, hour: 10, minute: 42)))
        let sameDay = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 28, hour: 18)))
        let nextDay = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 9)))
        #expect(ServePushReport.describe(count: 3, remote: "origin", since: since, now: sameDay) == "3 commits not pushed to origin since 10:42")
        #expect(ServePushReport.describe(count: 1, remote: "host", since: since, now: nextDay) == "1 commit not pushed to host since 2026-11-28 10:42")
    }
}
