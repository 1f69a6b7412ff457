import DAVTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PlainContacts

/// External-change callbacks for changes made outside the process: a save by another process
/// (`plaincontacts-crash-helper add`) and a file replaced by `git checkout`; and none for the
/// book's own save.
@Suite("AddressBook notifications across processes")
struct AddressBookProcessNotificationTests {
    /// Collects delivered changes with the instant each arrived.
    final class Inbox: Sendable {
        private let received = Mutex<[(change: StoreChange, at: ContinuousClock.Instant)]>([])

        func register(on book: AddressBook) throws {
            try book.registerExternalChangeCallback(queue: DispatchQueue(label: "inbox")) { change in
                let now = ContinuousClock.now
                self.received.withLock { $0.append((change, now)) }
            }
        }

        /// Waits up to `seconds` for a change that satisfies `matches`; the instant it arrived.
        func wait(seconds: Double, until matches: (StoreChange) -> Bool) -> ContinuousClock.Instant? {
            let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1_000)))
            while ContinuousClock.now < deadline {
                if let hit = received.withLock({ $0.first { matches($0.change) } }) { return hit.at }
                usleep(5_000)
            }
            return received.withLock { $0.first { matches($0.change) } }?.at
        }

        var changes: [StoreChange] { received.withLock { $0.map(\.change) } }

        func clear() {
            received.withLock { $0.removeAll() }
        }
    }

    @Test func aSaveByAnotherProcessIsReported() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let inbox = Inbox()
        try inbox.register(on: book)

        let helper = try CrashHelperProcess(["add", store.storeURL.path, "Katie", "Bell"])
        #expect(helper.waitForLine("saved"))
        let saved = ContinuousClock.now
        let end = helper.finish()
        #expect(end.reason == .exit && end.status == 0)
        let printedID = try #require(helper.lines.last.flatMap { Int32($0) })
        let id = RecordID(printedID)

        let arrival = inbox.wait(seconds: 5) { $0.addedPeople.contains(id) }
        #expect(arrival != nil, "no callback within 5 s for the other process's save")
        if let arrival {
            print("external-change callback after another process's save: \(saved.duration(to: arrival)) after it printed 'saved'")
        }
        try book.revert()
        #expect(book.person(withID: id)?.firstName == "Katie")
    }

    @Test func aFileRestoredByGitCheckoutIsReportedAsChanged() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let file = try store.personFile(katie)
        try git(["init", "-q"], in: store.storeURL)
        try git(["add", "-A"], in: store.storeURL)
        try git(["commit", "-q", "-m", "Add a person"], in: store.storeURL)

        let inbox = Inbox()
        try inbox.register(on: book)
        let editor = try store.openBook()
        let edited = try #require(editor.person(withID: katie.recordID))
        edited.note = "edited elsewhere"
        try editor.save()
        #expect(inbox.wait(seconds: 5) { $0.changedPeople.contains(katie.recordID) } != nil)
        try git(["commit", "-q", "-am", "Edit the person"], in: store.storeURL)
        inbox.clear()

        let restored = ContinuousClock.now
        try git(["checkout", "HEAD~1", "--", file], in: store.storeURL)
        let arrival = inbox.wait(seconds: 5) { $0.changedPeople.contains(katie.recordID) }
        #expect(arrival != nil, "no callback within 5 s for the file git restored")
        if let arrival {
            print("external-change callback after git checkout: \(restored.duration(to: arrival)) after the checkout started")
        }
        #expect(try store.read(file).contains("edited elsewhere") == false)
    }

    @Test func theBooksOwnAddAndEditAreNotReported() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let inbox = Inbox()
        try inbox.register(on: book)
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        let katie = try #require(book.allPeople().first)
        katie.note = "changed"
        try book.save()
        // Another book's save afterwards is reported once the own saves have been looked at:
        // it is all that is reported.
        let other = try store.openBook()
        let oliver = makePerson("Oliver", "Wood")
        try other.add(oliver)
        try other.save()
        #expect(inbox.wait(seconds: 5) { $0.addedPeople.contains(oliver.recordID) } != nil)
        #expect(inbox.changes == [StoreChange(addedPeople: [oliver.recordID])], "own saves reported: \(inbox.changes)")
    }
}
