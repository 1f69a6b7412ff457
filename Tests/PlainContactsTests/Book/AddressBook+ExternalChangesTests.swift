import DAVTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import PlainContacts

@Suite struct AddressBookExternalChangesTests {
    /// Collects delivered changes.
    final class Inbox: Sendable {
        let changes = Mutex<[StoreChange]>([])

        /// Waits (without holding a test thread) until the changes so far satisfy `condition`
        /// (by default, until one arrives) or the time is up.
        func wait(
            seconds: Double, until condition: ([StoreChange]) -> Bool = { !$0.isEmpty }
        ) async -> [StoreChange] {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let current = changes.withLock { $0 }
                if condition(current) { return current }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return changes.withLock { $0 }
        }
    }

    @Test func aSaveByAnotherBookIsReportedWithTheChangedIDs() async throws {
        let store = try TemporaryStore()
        let watching = try store.makeBook()
        let inbox = Inbox()
        try watching.registerExternalChangeCallback(queue: DispatchQueue(label: "test")) { change in
            inbox.changes.withLock { $0.append(change) }
        }
        let other = try store.openBook()
        let katie = makePerson("Katie", "Bell")
        try other.add(katie)
        try other.save()
        let changes = await inbox.wait(seconds: 5)
        #expect(changes.flatMap(\.addedPeople).contains(katie.recordID))
    }

    @Test func theBooksOwnSaveIsNotReported() async throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let inbox = Inbox()
        try book.registerExternalChangeCallback(queue: DispatchQueue(label: "test")) { change in
            inbox.changes.withLock { $0.append(change) }
        }
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        // Another book's save afterwards is reported once the own save has been looked at:
        // it is all that is reported.
        let other = try store.openBook()
        let oliver = makePerson("Oliver", "Wood")
        try other.add(oliver)
        try other.save()
        let changes = await inbox.wait(seconds: 5) { $0.contains { $0.addedPeople.contains(oliver.recordID) } }
        #expect(changes == [StoreChange(addedPeople: [oliver.recordID])])
    }

    @Test func anUnregisteredCallbackIsNotCalled() async throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let inbox = Inbox()
        let registration = try book.registerExternalChangeCallback(queue: DispatchQueue(label: "test")) { change in
            inbox.changes.withLock { $0.append(change) }
        }
        let kept = Inbox()
        try book.registerExternalChangeCallback(queue: DispatchQueue(label: "kept")) { change in
            kept.changes.withLock { $0.append(change) }
        }
        book.unregisterExternalChangeCallback(registration)
        let other = try store.openBook()
        try other.add(makePerson("Katie", "Bell"))
        try other.save()
        let keptChanges = await kept.wait(seconds: 5)
        #expect(!keptChanges.isEmpty)
        #expect(inbox.changes.withLock { $0 }.isEmpty)
    }

    @Test func aFileReplacedUnderneathIsReportedAsAChange() async throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let inbox = Inbox()
        try book.registerExternalChangeCallback(queue: DispatchQueue(label: "test")) { change in
            inbox.changes.withLock { $0.append(change) }
        }
        let file = try store.personFile(katie)
        let text = try store.read(file).replacingOccurrences(of: "\"Katie\"", with: "\"Kate\"")
        try FileManager.default.removeItem(at: store.path(file))
        try store.write(text, to: file)
        #expect(await inbox.wait(seconds: 5).flatMap(\.changedPeople).contains(katie.recordID))
    }
}
