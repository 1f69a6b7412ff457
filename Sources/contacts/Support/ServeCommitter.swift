import Foundation
import PlainContacts
import PlainContactsDAV
import Synchronization

/// Commits each change `contacts serve` saves in a store whose changes are committed
/// (`--commit`, or `autoCommit` in its store.json): one commit per change, holding exactly the
/// files the change wrote, with a first line naming the client (``ServeCommit``), made on a
/// queue of their own (``ServeGitQueue``) so that no request waits for Git.
///
/// The server tells it of each change while further writes to that book wait (``record(_:)``):
/// it reads the change's files then, as the change left them, and queues their commit, so
/// commits follow the changes one by one and each holds its own change even when later ones
/// are saved before it is made. A book's store is watched from when the server opens it. A
/// stopping server waits for the queue (``finish()``).
///
/// Each change is written to the store's ``ServeCommitJournal`` before its commit is queued, and
/// the journal is removed when the store's queued commits are all made. A server that stopped
/// before then leaves the journal, and the next one commits the changes it names when it starts
/// watching the store, with their files as they are then.
///
/// In a store whose commits are pushed (`--push`, or `autoPush` in its store.json), each commit
/// made asks its ``ServePusher`` for a push, and the pusher pushes the commits left by an earlier
/// server when the store is first watched.
///
/// ```swift
/// let committer = ServeCommitter(store: store, explicit: true) { line in console.note(line) }
/// committer.record(change)   // returns at once
/// committer.finish()         // when the server stopped
/// ```
final class ServeCommitter: Sendable {
    private let store: URL
    private let explicit: Bool
    /// Whether `--push` was given.
    private let explicitPush: Bool
    /// The pushers of the stores whose commits are pushed, by path.
    private let pushers = Mutex<[String: ServePusher]>([:])
    /// The paths of the stores whose changes are committed, with how many of their changes are
    /// queued and not committed yet.
    private let committed = Mutex<[String: Int]>([:])
    /// Where the commits are made, in order.
    private let queue: ServeGitQueue
    /// Where notes and failures are reported.
    private let log: @Sendable (String) -> Void
    /// Variables Git runs with, besides this process's.
    private let environment: [String: String]
    /// Makes the pusher of a store.
    private let makePusher: @Sendable (URL, ServeGitQueue) -> ServePusher

    /// A committer for the server of `store` (watched from now on), reporting to `log`;
    /// `queue` makes the commits, running Git with `environment` added to this process's;
    /// `push` (`--push`) pushes each commit, and `makePusher` makes the pusher of a store
    /// (tests give shorter delays).
    init(
        store: URL, explicit: Bool, push: Bool = false, queue: ServeGitQueue? = nil, environment: [String: String] = [:],
        makePusher: (@Sendable (URL, ServeGitQueue) -> ServePusher)? = nil, log: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.explicit = explicit || push
        explicitPush = push
        self.environment = environment
        self.log = log
        let queue = queue ?? ServeGitQueue(log: log)
        self.queue = queue
        self.makePusher = makePusher ?? { store, commits in ServePusher(store: store, commits: commits, environment: environment, log: log) }
        watch(store)
    }

    /// Notes a store whose changes are to be committed, when they are, and queues the commits
    /// of the changes an earlier server saved in it and did not commit.
    func watch(_ store: URL) {
        // A store whose commits are pushed has its changes committed, as --push does.
        let settings = StoreRepository.gitSettings(ofStoreAt: store)
        let pushed = explicitPush || settings.autoPush
        guard explicit || pushed || settings.autoCommit else { return }
        let key = store.path(percentEncoded: false)
        let journal = ServeCommitJournal(store: store)
        committed.withLock { queued in
            guard queued[key] == nil else { return }
            queued[key] = 0
            if pushed {
                let pusher = makePusher(store, queue)
                pushers.withLock { $0[key] = pusher }
                // Commits an earlier server made and did not push.
                pusher.requestPush()
            }
            let (left, unreadable) = journal.entries()
            if unreadable > 0 {
                log("\(journal.file.path(percentEncoded: false)): \(unreadable) line\(unreadable == 1 ? "" : "s") cannot be read and \(unreadable == 1 ? "is" : "are") left out")
            }
            guard !left.isEmpty else {
                if unreadable > 0 { journal.clear() }
                return
            }
            log("committing \(left.count) change\(left.count == 1 ? "" : "s") saved by a server that stopped before committing \(left.count == 1 ? "it" : "them")")
            for entry in left {
                queued[key, default: 0] += 1
                enqueue(ServeCommit(store: store, headline: entry.headline, files: files(entry.paths, in: store), explicit: explicit, environment: environment, note: log), journal: journal, key: key)
            }
        }
    }

    /// Queues the commit of a change, with its files as they are now, which is as the change
    /// left them while the server waits for this call.
    func record(_ change: ContactsServer.Change) {
        let store = change.storeURL ?? self.store
        let key = store.path(percentEncoded: false)
        guard !change.files.isEmpty, committed.withLock({ $0[key] != nil }) else { return }
        let headline = Self.headline(change)
        let journal = ServeCommitJournal(store: store)
        let commit = ServeCommit(store: store, headline: headline, files: files(change.files, in: store), explicit: explicit, environment: environment, note: log)
        committed.withLock { queued in
            do {
                try journal.append(.init(headline: headline, paths: change.files))
            } catch {
                log("\(journal.file.path(percentEncoded: false)) cannot be written (\(error.localizedDescription)); a server stopped before this change is committed will not commit it")
            }
            queued[key, default: 0] += 1
            enqueue(commit, journal: journal, key: key)
        }
    }

    /// Queues `commit`; when it is made and no other commit of the store is queued, removes
    /// the store's journal.
    private func enqueue(_ commit: ServeCommit, journal: ServeCommitJournal, key: String) {
        queue.add(JournaledCommit(commit: commit) { [self] in
            committed.withLock { queued in
                queued[key, default: 1] -= 1
                if queued[key] == 0 { journal.clear() }
            }
            pushers.withLock { $0[key] }?.requestPush()
        })
    }

    /// The files at `paths` in `store` with their bytes, `nil` for one removed.
    private func files(_ paths: [String], in store: URL) -> [(path: String, data: Data?)] {
        var files: [(path: String, data: Data?)] = []
        for path in paths {
            let file = store.appending(path: path).path(percentEncoded: false)
            if let data = FileManager.default.contents(atPath: file) {
                files.append((path, data))
            } else if !FileManager.default.fileExists(atPath: file) {
                files.append((path, nil))
            } else {
                log("a file a change wrote cannot be read; it is left out of the change's commit")
            }
        }
        return files
    }

    /// Waits for the commits queued, at most ``ServeGitQueue/stopPatience``, saying so in the
    /// log; says which are left if Git could not make them meanwhile.
    /// Then waits a little for the pushes in progress, and says which commits are not pushed.
    func finish() {
        defer { pushers.withLock { Array($0.values) }.forEach { $0.finish() } }
        let waiting = queue.waiting
        guard waiting > 0 else { return }
        log("stopping: waiting for the commits of \(waiting) change\(waiting == 1 ? "" : "s")")
        guard !queue.drain(patience: ServeGitQueue.stopPatience) else { return }
        let left = queue.waiting
        log("\(left) change\(left == 1 ? " is" : "s are") saved but not committed: the next server started on the store commits \(left == 1 ? "it" : "them")")
    }

    /// `serve: PUT by kim with DAVx5/4.4.2`: the method, the user and the client's product
    /// (``clientProduct(of:)``); `serve family: …` for a book other than the server's store;
    /// `web: edit Katie Bell by kim` for a change made on the web pages.
    static func headline(_ change: ContactsServer.Change) -> String {
        let source = change.isWeb ? "web" : "serve"
        var line = change.book == .home ? "\(source): \(change.method)" : "\(source) \(change.book): \(change.method)"
        if let user = change.user { line += " by \(user)" }
        // A browser's product says nothing worth keeping in the history.
        if !change.isWeb, let product = change.userAgent.flatMap(clientProduct), !product.isEmpty {
            line += " with \(product.prefix(60))"
        }
        return line
    }

    /// The product a `User-Agent` names the client by: its first product token
    /// (`DAVx5/4.4.2-ose`, `iOS/18.0`, `Evolution/3.46.4`), or, after Mozilla's compatibility
    /// token, the last one outside comments, which Mozilla's applications put their name in
    /// (`Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Thunderbird/153.7.0` gives
    /// `Thunderbird/153.7.0`).
    ///
    /// ```swift
    /// ServeCommitter.clientProduct(of: "vdirsyncer/0.19.2")  // "vdirsyncer/0.19.2"
    /// ```
    static func clientProduct(of userAgent: String) -> String? {
        var products: [Substring] = []
        var depth = 0
        for word in userAgent.split(separator: " ") {
            if depth == 0, !word.hasPrefix("(") { products.append(word) }
            depth += word.filter { $0 == "(" }.count - word.filter { $0 == ")" }.count
            depth = max(depth, 0)
        }
        guard let first = products.first else { return nil }
        let compatible = first.lowercased().hasPrefix("mozilla/") && products.count > 1
        return String(compatible ? products[products.count - 1] : first)
    }
}

/// A change's commit, which tells the committer when it is made.
private struct JournaledCommit: ServeGitStep {
    let commit: ServeCommit
    let made: @Sendable () -> Void

    var summary: String { commit.summary }

    func run() throws {
        try commit.run()
        made()
    }
}
