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
/// ```swift
/// let committer = ServeCommitter(store: store, explicit: true) { line in console.note(line) }
/// committer.record(change)   // returns at once
/// committer.finish()         // when the server stopped
/// ```
final class ServeCommitter: Sendable {
    private let store: URL
    private let explicit: Bool
    /// The paths of the stores whose changes are committed.
    private let committed = Mutex<Set<String>>([])
    /// Where the commits are made, in order.
    private let queue: ServeGitQueue
    /// Where notes and failures are reported.
    private let log: @Sendable (String) -> Void

    /// A committer for the server of `store` (watched from now on), reporting to `log`;
    /// `queue` makes the commits.
    init(store: URL, explicit: Bool, queue: ServeGitQueue? = nil, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.explicit = explicit
        self.log = log
        self.queue = queue ?? ServeGitQueue(log: log)
        watch(store)
    }

    /// Notes a store whose changes are to be committed, when they are.
    func watch(_ store: URL) {
        guard explicit || StoreRepository.autoCommitIsEnabled(inStoreAt: store) else { return }
        committed.withLock { _ = $0.insert(store.path(percentEncoded: false)) }
    }

    /// Queues the commit of a change, with its files as they are now, which is as the change
    /// left them while the server waits for this call.
    func record(_ change: ContactsServer.Change) {
        let store = change.storeURL ?? self.store
        guard committed.withLock({ $0.contains(store.path(percentEncoded: false)) }), !change.files.isEmpty else { return }
        var files: [(path: String, data: Data?)] = []
        for path in change.files {
            let file = store.appending(path: path).path(percentEncoded: false)
            if let data = FileManager.default.contents(atPath: file) {
                files.append((path, data))
            } else if !FileManager.default.fileExists(atPath: file) {
                files.append((path, nil))
            } else {
                log("a file a change wrote cannot be read; it is left out of the change's commit")
            }
        }
        queue.add(ServeCommit(store: store, headline: Self.headline(change), files: files, explicit: explicit, note: log))
    }

    /// Waits for the commits queued, at most ``ServeGitQueue/stopPatience``, saying so in the
    /// log; says which are left if Git could not make them meanwhile.
    func finish() {
        let waiting = queue.waiting
        guard waiting > 0 else { return }
        log("stopping: waiting for the commits of \(waiting) change\(waiting == 1 ? "" : "s")")
        guard !queue.drain(patience: ServeGitQueue.stopPatience) else { return }
        let left = queue.waiting
        log("\(left) change\(left == 1 ? " is" : "s are") saved but not committed: commit \(left == 1 ? "it" : "them") with git")
    }

    /// `serve: PUT by kim with DAVx5/4.4.2`: the method, the user and the client's product
    /// (``clientProduct(of:)``); `serve family: …` for a book other than the server's store.
    static func headline(_ change: ContactsServer.Change) -> String {
        var line = change.book == .home ? "serve: \(change.method)" : "serve \(change.book): \(change.method)"
        if let user = change.user { line += " by \(user)" }
        if let product = change.userAgent.flatMap(clientProduct), !product.isEmpty {
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

