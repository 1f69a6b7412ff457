import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
@testable import PlainContacts

/// A store folder of its own for one test, with the changes its watcher delivered.
private final class WatchedStore: Sendable {
    let root: URL
    private let recorded = Mutex<[StoreChange]>([])

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appending(path: "StoreWatcherTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        for folder in ["people", "groups", ".contacts/staging"] {
            try FileManager.default.createDirectory(
                at: root.appending(path: folder, directoryHint: .isDirectory), withIntermediateDirectories: true)
        }
        try write("{\n  \"formatVersion\": 1\n}\n", to: "store.json")
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Starts a watcher that records every change it delivers.
    func watch(
        polling: Bool,
        coalescing: Duration = .milliseconds(150),
        patience: Duration = .seconds(2),
        queue: DispatchQueue = DispatchQueue(label: "StoreWatcherTests.delivery")
    ) throws -> StoreWatcher {
        let watcher = try StoreWatcher(
            storeURL: root, queue: queue, coalescing: coalescing, pollInterval: .milliseconds(200),
            forcePolling: polling, patience: patience
        ) { [self] change in
            recorded.withLock { $0.append(change) }
        }
        #expect(watcher.isPolling == polling)
        return watcher
    }

    var deliveries: [StoreChange] { recorded.withLock { $0 } }

    /// Every delivered change, merged into one.
    var merged: StoreChange {
        deliveries.reduce(into: StoreChange()) { result, change in
            result.addedPeople.formUnion(change.addedPeople)
            result.changedPeople.formUnion(change.changedPeople)
            result.removedPeople.formUnion(change.removedPeople)
            result.addedGroups.formUnion(change.addedGroups)
            result.changedGroups.formUnion(change.changedGroups)
            result.removedGroups.formUnion(change.removedGroups)
            result.settingsChanged = result.settingsChanged || change.settingsChanged
        }
    }

    /// Waits, at most `timeout`, until the merged deliveries satisfy `condition`, and returns
    /// them. This is a wait, not a timing assertion: the timeout only keeps a broken watcher
    /// from hanging the suite.
    func waitForChanges(
        timeout: Duration = .seconds(5), until condition: (StoreChange) -> Bool
    ) async -> StoreChange {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let merged = merged
            if condition(merged) || ContinuousClock.now >= deadline { return merged }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Saves `text` to `relative` under the eyes of a watcher of its own, started just before,
    /// and waits until that one has delivered it; returns whether it did. The other watcher
    /// waits for a longer quiet (500 ms) than the watchers under test (150 ms), by more than a
    /// poll interval, so that one of them still running would have delivered the save before:
    /// a watcher that has not delivered it by then is not going to.
    func saveSeenByAnotherWatcher(_ text: String, to relative: String, polling: Bool) async throws -> Bool {
        let seen = Mutex(false)
        let witness = try StoreWatcher(
            storeURL: root, queue: DispatchQueue(label: "StoreWatcherTests.witness"), coalescing: .milliseconds(500),
            pollInterval: .milliseconds(200), forcePolling: polling
        ) { _ in
            seen.withLock { $0 = true }
        }
        defer { witness.stop() }
        try save(text, to: relative)
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while !seen.withLock({ $0 }) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return seen.withLock { $0 }
    }

    /// The store folder's path, as a watcher takes it.
    var rootPath: String {
        var path = root.standardizedFileURL.path(percentEncoded: false)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    func path(_ relative: String) -> String {
        root.appending(path: relative).path(percentEncoded: false)
    }

    /// Writes into the file itself, as an editor that saves in place does.
    func write(_ text: String, to relative: String) throws {
        let descriptor = open(path(relative), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    /// Writes a staged copy and renames it into place, as a save does.
    func save(_ text: String, to relative: String) throws {
        let staged = ".contacts/staging/\(UUID().uuidString)"
        try write(text, to: staged)
        try rename(staged, to: relative)
    }

    func rename(_ relative: String, to destination: String) throws {
        guard Glibc.rename(path(relative), path(destination)) == 0 else { throw POSIXError(.EIO) }
    }

    func remove(_ relative: String) throws {
        guard unlink(path(relative)) == 0 else { throw POSIXError(.ENOENT) }
    }

    static func person(_ id: Int32, name: String = "Person") -> String {
        "{\n  \"firstName\": \"\(name)\",\n  \"id\": \(id)\n}\n"
    }

    static func group(_ id: Int32, name: String = "Group") -> String {
        "{\n  \"id\": \(id),\n  \"name\": \"\(name)\"\n}\n"
    }
}

@Suite("StoreWatcher")
struct StoreWatcherTests {
    @Test(arguments: [false, true])
    func savedNewPersonIsReportedAsAdded(polling: Bool) async throws {
        let store = try WatchedStore()
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.save(WatchedStore.person(7), to: "people/ann-2x9kqp.json")

        let change = await store.waitForChanges { !$0.addedPeople.isEmpty }
        #expect(change == StoreChange(addedPeople: [RecordID(7)]))
    }

    @Test(arguments: [false, true])
    func inPlaceEditIsReportedAsChanged(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.person(3, name: "Bob"), to: "people/bob-k2m9xq.json")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.write(WatchedStore.person(3, name: "Robert"), to: "people/bob-k2m9xq.json")

        let change = await store.waitForChanges { !$0.changedPeople.isEmpty }
        #expect(change == StoreChange(changedPeople: [RecordID(3)]))
    }

    @Test(arguments: [false, true])
    func deletedPersonIsReportedAsRemoved(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.person(4), to: "people/cy-8hj2ka.json")
        try store.write(WatchedStore.person(5), to: "people/di-3mq8zt.json")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.remove("people/cy-8hj2ka.json")

        let change = await store.waitForChanges { !$0.removedPeople.isEmpty }
        #expect(change == StoreChange(removedPeople: [RecordID(4)]))
    }

    @Test(arguments: [false, true])
    func groupFileAndMembershipFileReportTheGroupAsChanged(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.group(2, name: "Friends"), to: "groups/friends-5tq2mz.json")
        try store.write("ann-2x9kqp\n", to: "groups/friends-5tq2mz.members")
        try store.write(WatchedStore.group(6, name: "Work"), to: "groups/work-9kd3wp.json")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.save("ann-2x9kqp\nbob-k2m9xq\n", to: "groups/friends-5tq2mz.members")
        let membership = await store.waitForChanges { !$0.changedGroups.isEmpty }
        #expect(membership == StoreChange(changedGroups: [RecordID(2)]))

        try store.write(WatchedStore.group(6, name: "Office"), to: "groups/work-9kd3wp.json")
        let both = await store.waitForChanges { $0.changedGroups.count == 2 }
        #expect(both == StoreChange(changedGroups: [RecordID(2), RecordID(6)]))
    }

    @Test(arguments: [false, true])
    func newGroupAndRemovedGroupAreReported(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.group(1), to: "groups/old-2kq9dm.json")
        try store.write("", to: "groups/old-2kq9dm.members")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.remove("groups/old-2kq9dm.json")
        try store.remove("groups/old-2kq9dm.members")
        try store.save(WatchedStore.group(8), to: "groups/new-7mz3qa.json")

        let change = await store.waitForChanges { !$0.removedGroups.isEmpty && !$0.addedGroups.isEmpty }
        #expect(change == StoreChange(addedGroups: [RecordID(8)], removedGroups: [RecordID(1)]))
    }

    @Test(arguments: [false, true])
    func manifestEditReportsSettingsChanged(polling: Bool) async throws {
        let store = try WatchedStore()
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.save("{\n  \"formatVersion\": 1,\n  \"sortOrdering\": \"lastName\"\n}\n", to: "store.json")

        let change = await store.waitForChanges { $0.settingsChanged }
        #expect(change == StoreChange(settingsChanged: true))
    }

    @Test(arguments: [false, true])
    func burstOfFiftyWritesIsCoalescedIntoFewDeliveries(polling: Bool) async throws {
        let store = try WatchedStore()
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        let ids = (Int32(1)...50).map { RecordID($0) }
        for id in ids {
            try store.save(WatchedStore.person(id.rawValue), to: "people/p\(id.rawValue)-abc234.json")
        }

        let change = await store.waitForChanges { $0.addedPeople.count == ids.count }
        #expect(change == StoreChange(addedPeople: Set(ids)))
        // A save after the burst is delivered once the watcher has delivered all it had of it.
        let later = RecordID(51)
        try store.save(WatchedStore.person(later.rawValue), to: "people/p51-abc234.json")
        _ = await store.waitForChanges { $0.addedPeople.contains(later) }
        #expect(store.deliveries.filter { $0 != StoreChange(addedPeople: [later]) }.count <= 3)
    }

    @Test(arguments: [false, true])
    func ownWritesAndDeletesAreNotReportedButALaterWriteIs(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.person(9), to: "people/gone-4kd8qw.json")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        let own = WatchedStore.person(10, name: "Own")
        watcher.ignore(path: "people/own-6tr2pz.json", fingerprint: fnv1a64(Data(own.utf8)))
        watcher.ignore(path: "people/gone-4kd8qw.json", fingerprint: 0)
        try store.save(own, to: "people/own-6tr2pz.json")
        try store.remove("people/gone-4kd8qw.json")
        // A change from outside afterwards shows that the own writes have been looked at.
        try store.save(WatchedStore.person(11), to: "people/other-9pq4vn.json")

        let first = await store.waitForChanges { !$0.addedPeople.isEmpty }
        #expect(first == StoreChange(addedPeople: [RecordID(11)]))

        try store.write(WatchedStore.person(10, name: "Edited"), to: "people/own-6tr2pz.json")
        let second = await store.waitForChanges { !$0.changedPeople.isEmpty }
        #expect(second == StoreChange(addedPeople: [RecordID(11)], changedPeople: [RecordID(10)]))
    }

    @Test(arguments: [false, true])
    func checkoutThatUnlinksAndRecreatesAFileReportsAChange(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.person(12, name: "Main"), to: "people/eve-5xw2km.json")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.remove("people/eve-5xw2km.json")
        try store.write(WatchedStore.person(12, name: "Branch"), to: "people/eve-5xw2km.json")

        let change = await store.waitForChanges { !$0.isEmpty }
        #expect(change == StoreChange(changedPeople: [RecordID(12)]))
    }

    @Test
    func editorThatWritesATemporaryFileAndRenamesItReportsAChange() async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.person(13), to: "people/fay-2nd8ws.json")
        let watcher = try store.watch(polling: false)
        defer { watcher.stop() }

        try store.write(WatchedStore.person(13, name: "Faye"), to: "people/.fay-2nd8ws.json.swp")
        try store.write(WatchedStore.person(13, name: "Faye"), to: "people/fay-2nd8ws.json.tmp")
        try store.rename("people/fay-2nd8ws.json.tmp", to: "people/fay-2nd8ws.json")

        let change = await store.waitForChanges { !$0.isEmpty }
        #expect(change == StoreChange(changedPeople: [RecordID(13)]))
    }

    @Test(arguments: [false, true])
    func imageChangeReportsItsPersonAsChanged(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.person(14), to: "people/gil-7rt3qa.json")
        try store.write("first image", to: "people/gil-7rt3qa.jpg")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.save("second, longer image", to: "people/gil-7rt3qa.jpg")

        let change = await store.waitForChanges { !$0.isEmpty }
        #expect(change == StoreChange(changedPeople: [RecordID(14)]))
    }

    @Test(arguments: [false, true])
    func rewritingTheSameBytesIsNotReported(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.person(15), to: "people/hal-3kq8mz.json")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.save(WatchedStore.person(15), to: "people/hal-3kq8mz.json")
        try store.save(WatchedStore.person(16), to: "people/ida-6wp2ns.json")

        let change = await store.waitForChanges { !$0.isEmpty }
        #expect(change == StoreChange(addedPeople: [RecordID(16)]))
    }

    @Test(arguments: [false, true])
    func writesInThePrivateFolderAreNeverReported(polling: Bool) async throws {
        let store = try WatchedStore()
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try store.write("lock", to: ".contacts/lock")
        try store.write(WatchedStore.person(17), to: ".contacts/staging/person.json")
        try store.write("cache", to: ".contacts/cache")

        // A save afterwards is delivered once the watcher has looked at the private writes:
        // it is all that is delivered.
        try store.save(WatchedStore.person(18), to: "people/jo-9vb3xd.json")
        let change = await store.waitForChanges { $0.addedPeople.contains(RecordID(18)) }
        #expect(change == StoreChange(addedPeople: [RecordID(18)]))
    }

    /// Driven on the watcher's engine at instants the test gives, so that the folder's quiet
    /// period passes without being waited for.
    @Test
    func changesWaitForTheCommitJournalToGo() throws {
        let store = try WatchedStore()
        let start = ContinuousClock.now
        var engine = WatcherEngine(
            rootPath: store.rootPath, coalescing: .milliseconds(150), pollInterval: .milliseconds(200),
            forcePolling: false, patience: .seconds(3_600), now: start)
        defer { engine.close() }
        try #require(!engine.isPolling)

        try store.write("commit", to: ".contacts/journal")
        try store.save(WatchedStore.person(19), to: "people/kim-4hs8pa.json")
        engine.readInotifyEvents(at: start)
        // A second on, the folder has long been quiet, but the journal holds the change back.
        let quiet = start.advanced(by: .seconds(1))
        #expect(engine.changeIfDue(at: quiet) { _, _ in false } == nil)

        try store.remove(".contacts/journal")
        let change = engine.changeIfDue(at: quiet.advanced(by: .seconds(1))) { _, _ in false }
        #expect(change == StoreChange(addedPeople: [RecordID(19)]))
    }

    @Test(arguments: [false, true])
    func replacingThePeopleFolderReportsTheDifference(polling: Bool) async throws {
        let store = try WatchedStore()
        try store.write(WatchedStore.person(20, name: "Kept"), to: "people/kept-2ab3cd.json")
        try store.write(WatchedStore.person(21), to: "people/lost-4ef5gh.json")
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try FileManager.default.createDirectory(atPath: store.path("incoming"), withIntermediateDirectories: false)
        try store.write(WatchedStore.person(20, name: "Edited"), to: "incoming/kept-2ab3cd.json")
        try store.write(WatchedStore.person(22), to: "incoming/new-6jk7mn.json")
        try store.rename("people", to: "people-old")
        try store.rename("incoming", to: "people")

        let change = await store.waitForChanges { $0.addedPeople.count + $0.changedPeople.count + $0.removedPeople.count == 3 }
        #expect(change == StoreChange(addedPeople: [RecordID(22)], changedPeople: [RecordID(20)], removedPeople: [RecordID(21)]))

        try store.write(WatchedStore.person(23), to: "people/late-8pq9rs.json")
        let later = await store.waitForChanges { $0.addedPeople.contains(RecordID(23)) }
        #expect(later.addedPeople == [RecordID(22), RecordID(23)])
    }

    @Test(arguments: [false, true])
    func peopleFolderCreatedAfterTheWatcherStartedIsWatched(polling: Bool) async throws {
        let store = try WatchedStore()
        try FileManager.default.removeItem(atPath: store.path("people"))
        let watcher = try store.watch(polling: polling)
        defer { watcher.stop() }

        try FileManager.default.createDirectory(atPath: store.path("people"), withIntermediateDirectories: false)
        try store.save(WatchedStore.person(29), to: "people/quin-2ws3ed.json")
        let first = await store.waitForChanges { !$0.isEmpty }
        #expect(first == StoreChange(addedPeople: [RecordID(29)]))

        try store.write(WatchedStore.person(29, name: "Quinn"), to: "people/quin-2ws3ed.json")
        let second = await store.waitForChanges { !$0.changedPeople.isEmpty }
        #expect(second == StoreChange(addedPeople: [RecordID(29)], changedPeople: [RecordID(29)]))
    }

    @Test(arguments: [false, true])
    func nothingIsDeliveredAfterStop(polling: Bool) async throws {
        let store = try WatchedStore()
        let watcher = try store.watch(polling: polling)

        watcher.stop()
        watcher.stop()
        #expect(try await store.saveSeenByAnotherWatcher(WatchedStore.person(24), to: "people/lu-3cv4bn.json", polling: polling))

        #expect(store.deliveries.isEmpty)
    }

    @Test
    func releasingTheWatcherStopsIt() async throws {
        let store = try WatchedStore()
        weak var released: StoreWatcher?
        do {
            let watcher = try store.watch(polling: false)
            released = watcher
        }
        #expect(released == nil)

        #expect(try await store.saveSeenByAnotherWatcher(WatchedStore.person(25), to: "people/max-5ty6ui.json", polling: false))
        #expect(store.deliveries.isEmpty)
    }

    @Test
    func handlerRunsOnTheGivenQueue() async throws {
        let store = try WatchedStore()
        let queue = DispatchQueue(label: "StoreWatcherTests.handler")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "handler queue")
        let queueNames = Mutex<[String?]>([])
        let watcher = try StoreWatcher(storeURL: store.root, queue: queue) { [key] _ in
            let name = DispatchQueue.getSpecific(key: key)
            queueNames.withLock { $0.append(name) }
        }
        defer { watcher.stop() }

        try store.save(WatchedStore.person(26), to: "people/ned-7op8as.json")

        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while queueNames.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let names = queueNames.withLock { $0 }
        #expect(!names.isEmpty)
        #expect(names.allSatisfy { $0 == "handler queue" })
    }

    @Test
    func handlerMayStopTheWatcher() async throws {
        let store = try WatchedStore()
        let calls = Mutex(0)
        let holder = Mutex<StoreWatcher?>(nil)
        let watcher = try StoreWatcher(storeURL: store.root, queue: DispatchQueue(label: "StoreWatcherTests.stop")) { _ in
            calls.withLock { $0 += 1 }
            holder.withLock { $0 }?.stop()
        }
        holder.withLock { $0 = watcher }

        try store.save(WatchedStore.person(27), to: "people/ola-9df0gh.json")
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while calls.withLock({ $0 }) == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await store.saveSeenByAnotherWatcher(WatchedStore.person(28), to: "people/pia-1jk2lz.json", polling: false))

        #expect(calls.withLock { $0 } == 1)
        holder.withLock { $0 = nil }
    }

    @Test
    func watchingAMissingFolderThrowsNotAStore() throws {
        let store = try WatchedStore()
        let missing = store.root.appending(path: "missing", directoryHint: .isDirectory)
        let error = #expect(throws: ContactsError.self) {
            try StoreWatcher(storeURL: missing, queue: DispatchQueue(label: "StoreWatcherTests.missing")) { _ in }
        }
        #expect(error?.code == .notAStore)
    }
}
