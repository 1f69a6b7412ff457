import DAVTestSupport
import Dispatch
import Foundation
import Glibc
import PlainContactsSystem
import Testing

@testable import PlainContacts

/// With `contacts watch` running, a book checks only the person files the watcher names, and
/// still answers exactly as a full read of the files: for edits in place, files replaced by
/// rename, `git checkout`, saves, edits made while no watcher ran, and every case where the
/// watcher cannot vouch (an overflow, a stale or foreign socket).
@Suite struct IndexWatcherTests {
    /// The watcher on a thread of its own, stopped through a pipe.
    private final class RunningWatcher: Sendable {
        private let stopEnd: Int32
        private let readEnd: Int32
        private let finished = DispatchSemaphore(value: 0)

        init(_ layout: StoreLayout) throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            stopEnd = ends[1]
            readEnd = ends[0]
            let readEnd = readEnd
            let ready = DispatchSemaphore(value: 0)
            let finished = finished
            Thread {
                try? IndexWatcher.run(store: layout, stopWhenReadable: readEnd) { line in
                    if line.hasPrefix("Answering") { ready.signal() }
                }
                ready.signal()
                finished.signal()
            }.start()
            ready.wait()
        }

        func stop() {
            var byte: UInt8 = 1
            _ = write(stopEnd, &byte, 1)
            finished.wait()
            close(stopEnd)
            close(readEnd)
        }
    }

    /// A store with three saved people, each with an address, its index settled as a scan long
    /// after the files changed would leave it, and its layout.
    private func settledStore() throws -> (TemporaryStore, StoreLayout) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        for (first, last) in [("Katie", "Bell"), ("John", "Appleseed"), ("Anna", "Haro")] {
            let person = makePerson(first, last)
            person.emails = MultiValue([(value: "\(first.lowercased())@example.com", label: .work)])
            try book.add(person)
        }
        try book.save()
        let layout = StoreLayout(root: store.storeURL)
        StoreIndex.remove(layout)
        let scanned = try PersonCatalog.scan(layout: layout, index: nil)
        let later = PersonCatalog.now() + 3_600_000_000_000
        var folder = stat()
        try #require(stat(layout.peopleFolder.path, &folder) == 0)
        try StoreIndex.write(
            scanned.summaries, peopleFolder: FileSignature.of(layout.peopleFolder.path),
            groupsFolder: FileSignature.of(layout.groupsFolder.path),
            listing: FolderListing(signature: FileSignature(folder), listedAt: later), builtAt: later, layout: layout)
        return (store, layout)
    }

    /// Every address a fresh book answers, with its person, as text.
    private func addresses(in store: TemporaryStore) throws -> [String] {
        try store.openBook().emailAddresses(matching: "").map { "\($0.address) \($0.recordID) \($0.compositeName ?? "")" }
    }

    /// What a full read of the files answers, without the index or the watcher.
    private func fullRead(_ store: TemporaryStore) throws -> [String] {
        let copy = try TemporaryStore()
        try FileManager.default.createDirectory(at: copy.storeURL, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: store.storeURL.path) where name != ".contacts" {
            try FileManager.default.copyItem(at: store.path(name), to: copy.path(name))
        }
        return try addresses(in: copy)
    }

    /// The path of a person's file, found by first name.
    private func file(of first: String, in store: TemporaryStore) throws -> URL {
        let person = try #require(try store.openBook().allPeople().first { $0.firstName == first })
        return store.path(try store.personFile(person))
    }

    /// How the next book's check goes with the watcher's help.
    private func outcome(_ layout: StoreLayout) throws -> PersonCatalog.Outcome {
        try PersonCatalog.check(layout: layout, index: StoreIndex.load(layout), askingWatcher: true)
    }

    private func isConfirmed(_ outcome: PersonCatalog.Outcome) -> Bool {
        if case .confirmed = outcome { return true }
        return false
    }

    @Test func anUnchangedStoreIsConfirmedWithoutItsListingOnceTheWatcherVouches() throws {
        let (store, layout) = try settledStore()
        let watcher = try RunningWatcher(layout)
        defer { watcher.stop() }
        // The first check looks at every file and marks the index with the watcher's token.
        #expect(isConfirmed(try outcome(layout)))
        let mark = try #require(IndexWatchMark.read(layout))
        // A new image changes `people/`, so the listing no longer vouches; the watcher does.
        try Data([0xFF, 0xD8]).write(to: store.path("people/somebody.jpg"))
        let index = try #require(StoreIndex.load(layout))
        #expect(!CheckedIndex.mayConfirm(index, layout: layout))
        #expect(isConfirmed(try outcome(layout)))
        #expect(IndexWatchMark.read(layout)?.token != mark.token)
        #expect(try addresses(in: store) == (try fullRead(store)))
    }

    @Test func anInPlaceEditThatKeepsTheSizeIsSeen() throws {
        let (store, layout) = try settledStore()
        let watcher = try RunningWatcher(layout)
        defer { watcher.stop() }
        #expect(isConfirmed(try outcome(layout)))
        let url = try file(of: "John", in: store)
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "john@", with: "jean@")
        // As nano saves: truncate and write the same inode.
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        #expect(!isConfirmed(try outcome(layout)))
        let seen = try addresses(in: store)
        #expect(seen.contains { $0.hasPrefix("jean@example.com") })
        #expect(seen == (try fullRead(store)))
    }

    @Test func aFileReplacedByRenameIsSeen() throws {
        let (store, layout) = try settledStore()
        let watcher = try RunningWatcher(layout)
        defer { watcher.stop() }
        #expect(isConfirmed(try outcome(layout)))
        let url = try file(of: "Anna", in: store)
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "anna@", with: "hana@")
        // As vim and `sed -i` save: a new file renamed over the old one.
        let temporary = url.deletingLastPathComponent().appending(path: ".anna.swp")
        try Data(text.utf8).write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
        let seen = try addresses(in: store)
        #expect(seen.contains { $0.hasPrefix("hana@example.com") })
        #expect(seen == (try fullRead(store)))
    }

    @Test func aGitCheckoutThatChangesAndRemovesFilesIsSeen() throws {
        let (store, layout) = try settledStore()
        try git(["init", "-q", "-b", "main"], in: store.storeURL)
        try git(["add", "-A"], in: store.storeURL)
        try git(["commit", "-q", "-m", "three"], in: store.storeURL)
        try git(["checkout", "-q", "-b", "other"], in: store.storeURL)
        let katie = try file(of: "Katie", in: store)
        let john = try file(of: "John", in: store)
        try String(contentsOf: katie, encoding: .utf8).replacingOccurrences(of: "katie@", with: "kate@")
            .write(to: katie, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(at: john)
        try git(["commit", "-q", "-a", "-m", "two"], in: store.storeURL)
        try git(["checkout", "-q", "main"], in: store.storeURL)

        let watcher = try RunningWatcher(layout)
        defer { watcher.stop() }
        _ = try outcome(layout)
        let before = try addresses(in: store)
        #expect(before.count == 3)
        try git(["checkout", "-q", "other"], in: store.storeURL)
        let after = try addresses(in: store)
        #expect(after.count == 2)
        #expect(after.contains { $0.hasPrefix("kate@example.com") })
        #expect(after == (try fullRead(store)))
        try git(["checkout", "-q", "main"], in: store.storeURL)
        #expect(try addresses(in: store) == before)
    }

    @Test func aPersonAddedAndRemovedIsSeen() throws {
        let (store, layout) = try settledStore()
        let watcher = try RunningWatcher(layout)
        defer { watcher.stop() }
        _ = try outcome(layout)
        let book = try store.openBook()
        let person = makePerson("Oliver", "Wood")
        person.emails = MultiValue([(value: "oliver@example.com", label: .home)])
        try book.add(person)
        try book.save()
        #expect(try addresses(in: store).contains { $0.hasPrefix("oliver@example.com") })
        #expect(try addresses(in: store) == (try fullRead(store)))
        let again = try store.openBook()
        try again.remove(try #require(again.person(withID: person.recordID)))
        try again.save()
        #expect(try addresses(in: store).count == 3)
        #expect(try addresses(in: store) == (try fullRead(store)))
    }

    @Test func anEditWhileNoWatcherRanIsSeen() throws {
        let (store, layout) = try settledStore()
        let first = try RunningWatcher(layout)
        #expect(isConfirmed(try outcome(layout)))
        first.stop()
        let url = try file(of: "Katie", in: store)
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "katie@", with: "kitty@")
        try Data(text.utf8).write(to: url)
        let second = try RunningWatcher(layout)
        defer { second.stop() }
        let seen = try addresses(in: store)
        #expect(seen.contains { $0.hasPrefix("kitty@example.com") })
        #expect(seen == (try fullRead(store)))
    }

    @Test func anOverflowOrAReplacedFolderMakesEveryEarlierTokenUnknown() throws {
        let (store, layout) = try settledStore()
        defer { withExtendedLifetime(store) {} }
        let queue = try #require(InotifyQueue())
        defer { queue.close() }
        let watcher = IndexWatcher(layout: layout, queue: queue) { _ in }
        #expect(watcher.watchFolders())
        // Since no token: unknown, with the token that stands for now.
        guard case .unknown(let now) = watcher.answer(since: nil) else {
            Issue.record("a question without a token must be unknown")
            return
        }
        #expect(watcher.answer(since: now) == .changed(now, names: []))
        try Data("x".utf8).write(to: layout.peopleFolder.appending(path: "note.txt"))
        guard case .changed(let later, let changed) = watcher.answer(since: now) else {
            Issue.record("a change must be named")
            return
        }
        #expect(changed == ["people/note.txt"])
        // The kernel's queue overflowed: what happened meanwhile is lost.
        _ = watcher.take([InotifyQueue.Event(watch: -1, mask: UInt32(IN_Q_OVERFLOW), name: "")], cookie: nil)
        guard case .unknown(let fresh) = watcher.answer(since: later) else {
            Issue.record("an overflow must make earlier tokens unknown")
            return
        }
        #expect(fresh.instance != later.instance)
        // `people/` replaced: its old watch saw nothing of the new folder.
        try FileManager.default.moveItem(at: layout.peopleFolder, to: layout.root.appending(path: "people-old"))
        try FileManager.default.createDirectory(at: layout.peopleFolder, withIntermediateDirectories: false)
        guard case .unknown(let replaced) = watcher.answer(since: fresh) else {
            Issue.record("a replaced folder must make earlier tokens unknown")
            return
        }
        #expect(replaced.instance != fresh.instance)
    }

    @Test func aFileInPlaceOfTheSocketIsNeitherBelievedNorReplaced() throws {
        let (store, layout) = try settledStore()
        let socketPath = try #require(layout.watchSocketPath)
        try Data("not a socket".utf8).write(to: URL(fileURLWithPath: socketPath))
        #expect(IndexWatchMark.ask(layout, since: nil) == nil)
        #expect(throws: ContactsError.self) {
            try IndexWatcher.run(store: layout, stopWhenReadable: -1) { _ in }
        }
        #expect(try String(contentsOf: URL(fileURLWithPath: socketPath), encoding: .utf8) == "not a socket")
        #expect(try addresses(in: store) == (try fullRead(store)))
    }

    @Test func aSecondWatcherOfTheSameStoreIsRefused() throws {
        let (store, layout) = try settledStore()
        defer { withExtendedLifetime(store) {} }
        let watcher = try RunningWatcher(layout)
        defer { watcher.stop() }
        #expect {
            try IndexWatcher.run(store: layout, stopWhenReadable: -1) { _ in }
        } throws: { error in
            (error as? ContactsError)?.code == .busy
        }
    }

    /// A program of another user that listens on a socket and answers every question with
    /// `answer`: what a foreign socket at the watcher's path would say.
    private static let foreignListener = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX)
        s.bind(sys.argv[1])
        s.listen(4)
        print("ready", flush=True)
        while True:
            c, _ = s.accept()
            c.recv(256)
            c.sendall(sys.argv[2].encode())
            c.close()
        """

    /// Only root can run a program as another user; `setpriv` and Python do it.
    private static let canRunAsAnotherUser = getuid() == 0
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    @Test(.enabled(if: canRunAsAnotherUser)) func aSocketOfAnotherUserIsNotBelieved() throws {
        let (store, layout) = try settledStore()
        let watcher = try RunningWatcher(layout)
        #expect(isConfirmed(try outcome(layout)))
        watcher.stop()
        let mark = try #require(IndexWatchMark.read(layout))
        let url = try file(of: "Katie", in: store)
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "katie@", with: "kitty@")
        try Data(text.utf8).write(to: url)

        // Another user's program claims nothing changed since the index's own token.
        let folder = FileManager.default.temporaryDirectory.appending(path: "foreign-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(chmod(folder.path, 0o777) == 0)
        let socket = folder.appending(path: "s").path
        let foreign = Process()
        foreign.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        foreign.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", Self.foreignListener, socket,
            "changed \(mark.token.text)\n",
        ]
        let output = Pipe()
        foreign.standardOutput = output
        try foreign.run()
        defer {
            // SIGKILL: the test runner may leave SIGTERM ignored in its children.
            kill(foreign.processIdentifier, SIGKILL)
            foreign.waitUntilExit()
        }
        let ready = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        try #require(ready.hasPrefix("ready"))
        let socketPath = try #require(layout.watchSocketPath)
        #expect(rename(socket, socketPath) == 0)

        #expect(IndexWatchMark.ask(layout, since: mark.token) == nil)
        let seen = try addresses(in: store)
        #expect(seen.contains { $0.hasPrefix("kitty@example.com") })
        #expect(seen == (try fullRead(store)))
    }
}
