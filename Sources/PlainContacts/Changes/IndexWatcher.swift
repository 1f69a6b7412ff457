import FoundationEssentials
import Glibc
import PlainContactsSystem

/// The watcher behind `contacts watch`: it keeps inotify watches on a store's folders and
/// answers, on a socket in `.contacts/`, which files changed since a token, so that a reading
/// command looks only at those instead of every person file (``PersonCatalog``).
///
/// It is Git's file system monitor for one store. Every batch of events read from the
/// kernel's queue is a step of a ``ChangeJournal``; anything that makes the record incomplete
/// (the queue overflowed, `people/` or `groups/` was created, moved or removed) starts a new
/// instance, whose answer to every older token is "unknown", so that clients check every file
/// once. A question is answered only after a cookie file created in `.contacts/` for it came
/// back out of the queue: every change completed before the question was then read.
///
/// One store has one watcher: it holds `.contacts/watch.lock` while it runs. It refuses a store
/// on a network file system, where other machines' writes raise no events here.
///
/// ```swift
/// try IndexWatcher.run(store: layout, stopWhenReadable: pipeEnd) { line in log(line) }
/// ```
final class IndexWatcher {
    /// How long a question may take to arrive once a client connected.
    static let questionTimeoutMilliseconds: Int32 = 1000
    /// How long to wait for a cookie's event before answering "unknown".
    static let cookieTimeoutMilliseconds: Int32 = 2000
    /// What the folders that hold records are watched for.
    static let recordMask = UInt32(
        IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    /// The events by which an entry of a folder comes or goes.
    static let entryMoves = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
    /// What the private folder is watched for: the cookies, and its own end.
    static let privateMask = UInt32(IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// The folders watched, by what their events mean.
    enum Watched: Equatable {
        /// The store's root: `store.json`, `.gitattributes`, and `people/`, `groups/` or
        /// `.contacts/` themselves being created, moved or removed.
        case root
        /// A folder of records, by its name relative to the root.
        case records(String)
        /// `.contacts/`, where the cookies are made.
        case privateFolder
    }

    private let layout: StoreLayout
    private let queue: InotifyQueue
    private var watches: [Int32: Watched] = [:]
    private var journal: ChangeJournal
    private var cookies = 0
    private let cookiePrefix = "watch-cookie-\(getpid())-"
    /// Whether the store's root went away: the watcher then ends.
    private var rootGone = false
    private let log: (String) -> Void

    init(layout: StoreLayout, queue: InotifyQueue, journal: ChangeJournal = ChangeJournal(), log: @escaping (String) -> Void) {
        self.layout = layout
        self.queue = queue
        self.journal = journal
        self.log = log
    }

    /// Runs the watcher of the store until `stop` becomes readable (a signal handler writes to
    /// a pipe) or the store's folder goes away.
    ///
    /// - Throws: ``ContactsError/Code/busy`` when another watcher of the store runs;
    ///   ``ContactsError/Code/io`` when the store lies on a network file system, inotify or
    ///   the socket cannot be had; the codes of ``PosixError`` when `.contacts/` cannot be made.
    static func run(store layout: StoreLayout, stopWhenReadable stop: Int32, log: @escaping (String) -> Void) throws {
        let root = layout.root.path(percentEncoded: false)
        let privatePath = layout.privateFolder.path(percentEncoded: false)
        try DeviceFiles.makePrivateFolder(layout.privateFolder)
        let lock = try FileLock.open(layout.watchLockPath, in: privatePath)
        defer { FileLock.release(lock) }
        guard try FileLock.acquire(.exclusive, on: lock, waiting: .upTo(.zero), action: "cannot lock the watcher") else {
            throw ContactsError(.busy, "another `contacts watch` already watches this store", path: root)
        }
        for path in [root, layout.peopleFolder.path(percentEncoded: false), layout.groupsFolder.path(percentEncoded: false)]
        where NetworkFileSystems.holds(path) == true {
            throw ContactsError(
                .io, "is on a network file system, where other machines' changes raise no events: the watcher cannot vouch for it",
                path: path)
        }
        guard let queue = InotifyQueue() else { throw ContactsError(.io, "cannot open an inotify instance", path: root) }
        defer { queue.close() }
        guard let socketPath = layout.watchSocketPath else {
            throw ContactsError(.io, "has no usable path for the watcher's socket", path: privatePath)
        }
        let listener: Int32
        switch LocalSocket.listen(on: socketPath) {
        case .success(let descriptor): listener = descriptor
        case .failure(let failure):
            throw PosixError.error("cannot listen on the watcher's socket", path: socketPath, code: failure.code, call: failure.call)
        }
        defer {
            close(listener)
            unlink(socketPath)
        }
        let watcher = IndexWatcher(layout: layout, queue: queue, log: log)
        guard watcher.watchFolders() else { throw ContactsError(.io, "cannot watch the store's folders", path: root) }
        log("Answering reading commands of \(root.hasSuffix("/") ? String(root.dropLast()) : root) on \(socketPath)")
        watcher.serve(listener: listener, stop: stop)
    }

    /// Watches the root, `people/`, `groups/` and `.contacts/` as they are now, replacing the
    /// watches of folders that were replaced; whether the root and `.contacts/` are watched.
    @discardableResult
    func watchFolders() -> Bool {
        let root = layout.root.path(percentEncoded: false)
        let folders: [(String, Watched, UInt32)] = [
            (root, .root, Self.recordMask),
            (layout.peopleFolder.path(percentEncoded: false), .records(StoreLayout.peopleFolderName), Self.recordMask),
            (layout.groupsFolder.path(percentEncoded: false), .records(StoreLayout.groupsFolderName), Self.recordMask),
            (layout.privateFolder.path(percentEncoded: false), .privateFolder, Self.privateMask),
        ]
        for (path, meaning, mask) in folders {
            let watch = queue.add(path, mask: mask)
            for (old, oldMeaning) in watches where oldMeaning == meaning && old != watch {
                queue.remove(old)
                watches[old] = nil
            }
            if let watch { watches[watch] = meaning }
        }
        return watches.values.contains(.root) && watches.values.contains(.privateFolder)
    }

    /// Answers questions until `stop` is readable or the root goes away.
    private func serve(listener: Int32, stop: Int32) {
        var entries = [
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: queue.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while !rootGone {
            for index in entries.indices { entries[index].revents = 0 }
            let ready = poll(&entries, nfds_t(entries.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                log("Stopped: cannot wait for events (errno \(errno)).")
                return
            }
            if entries[0].revents != 0 { return }
            if entries[2].revents != 0 { _ = drain(untilCookie: nil) }
            if entries[1].revents != 0 { answerOne(listener) }
        }
        log("Stopped: the store's folder went away.")
    }

    /// Takes one connection, reads its question and answers it once the cookie made for it
    /// came back.
    private func answerOne(_ listener: Int32) {
        guard let connection = LocalSocket.accept(from: listener) else { return }
        defer { close(connection) }
        // Only this user's programs are answered.
        guard LocalSocket.peerUser(of: connection) == getuid() else { return }
        var timeout = timeval(tv_sec: Int(Self.questionTimeoutMilliseconds / 1000), tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let question = LocalSocket.receive(from: connection, until: 0x0A, limit: ChangeQuery.questionLimit),
            let token = ChangeQuery.token(parsing: question)
        else { return }
        let answer = barrier() ? journal.answer(since: token) : .unknown(journal.now)
        _ = LocalSocket.send(ChangeQuery.bytes(of: answer), to: connection)
    }

    /// Makes a cookie file in `.contacts/` and reads the queue until its event: every change
    /// completed before is then in the journal. Whether the cookie came back.
    func barrier() -> Bool {
        cookies += 1
        let name = cookiePrefix + String(cookies)
        let path = layout.privateFolder.appending(path: name).path(percentEncoded: false)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        defer { unlink(path) }
        return drain(untilCookie: name)
    }

    /// Reads the queue into the journal; with a cookie, keeps waiting until its event is read
    /// (whether it was, within ``cookieTimeoutMilliseconds``).
    @discardableResult
    func drain(untilCookie cookie: String?) -> Bool {
        var seen = false
        repeat {
            guard let events = queue.readEvents() else {
                // The queue cannot be read: nothing it says can be trusted.
                journal.startOver()
                return false
            }
            seen = take(events, cookie: cookie) || seen
            if cookie == nil || seen || rootGone { return seen }
        } while queue.waitUntilReadable(milliseconds: Self.cookieTimeoutMilliseconds)
        return false
    }

    /// Records one batch of events; whether it holds the cookie's creation.
    func take(_ events: [InotifyQueue.Event], cookie: String?) -> Bool {
        var names: [String] = []
        var seenCookie = false
        var lostTrack = false
        for event in events {
            if event.has(IN_Q_OVERFLOW) {
                log("The kernel's change queue overflowed: clients will check every file once.")
                lostTrack = true
                continue
            }
            guard let meaning = watches[event.watch] else { continue }
            if event.has(IN_IGNORED) { watches[event.watch] = nil }
            switch meaning {
            case .root:
                if event.name.isEmpty {
                    if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED) { rootGone = true }
                } else if [StoreLayout.peopleFolderName, StoreLayout.groupsFolderName, StoreLayout.privateFolderName]
                    .contains(event.name)
                {
                    // Created, removed or moved: the watch on the old folder saw nothing of
                    // the new one. A change of its mode or times leaves the watch as it was.
                    if event.mask & Self.entryMoves != 0 { lostTrack = true }
                } else {
                    names.append(event.name)
                }
            case .records(let folder):
                if event.name.isEmpty {
                    // The folder itself was moved or removed.
                    if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED) { lostTrack = true }
                } else if !event.name.hasPrefix(".") {
                    // Hidden names (a durable write's temporary files) are never records.
                    names.append(folder + "/" + event.name)
                }
            case .privateFolder:
                if event.name.isEmpty {
                    if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED) { lostTrack = true }
                } else if let cookie, event.name == cookie {
                    seenCookie = true
                }
            }
        }
        if lostTrack {
            journal.startOver()
            watchFolders()
        } else {
            journal.record(names)
        }
        return seenCookie
    }

    /// What the journal answers now for `token`, after the barrier (for tests that run the
    /// watcher's steps one by one).
    func answer(since token: ChangeToken?) -> ChangeJournal.Answer {
        barrier() ? journal.answer(since: token) : .unknown(journal.now)
    }
}
