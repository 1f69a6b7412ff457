import Foundation
import Testing
@testable import PlainContacts

@Suite struct StoreCommitMessageTests {
    private struct Unreadable: Error {}

    private static func person(_ first: String, _ last: String) -> Data {
        var state = PersonState()
        state.values[.firstName] = .string(first)
        state.values[.lastName] = .string(last)
        return PersonRecordCoder.encode(id: RecordID(1), state: state)
    }

    private static func group(_ name: String) -> Data {
        var state = GroupState()
        state.name = name
        return GroupRecordCoder.encode(id: RecordID(2), state: state)
    }

    /// The message for `entries` over files as they are now (`current`) and as last committed.
    private func message(
        _ entries: [(status: Character, path: String)], current: [String: Data], committed: [String: Data] = [:]
    ) -> String {
        StoreCommitMessage.make(entries) { path, deleted in deleted ? committed[path] : current[path] ?? committed[path] }
    }

    @Test func namesAddedEditedAndRemovedPeopleByTheirNames() {
        let entries: [(status: Character, path: String)] = [
            ("A", "people/katie.json"), ("M", "people/john.json"), ("D", "people/anna.json"),
        ]
        let current = ["people/katie.json": Self.person("Katie", "Bell"), "people/john.json": Self.person("John", "Appleseed")]
        let committed = ["people/anna.json": Self.person("Anna", "Haro")]
        #expect(
            message(entries, current: current, committed: committed)
                == "contacts: add Katie Bell; edit John Appleseed; remove Anna Haro")
    }

    @Test func listsPeopleThenGroupsThenSettings() {
        let entries: [(status: Character, path: String)] = [
            ("M", "store.json"), ("A", "groups/friends.json"), ("A", "groups/friends.members"), ("M", "people/katie.json"),
        ]
        let current = ["groups/friends.json": Self.group("Friends"), "people/katie.json": Self.person("Katie", "Bell")]
        #expect(message(entries, current: current) == "contacts: edit Katie Bell; add group Friends; change settings")
    }

    @Test func aMembershipFileOrImageAloneReadsAsAnEditOfItsRecord() {
        let entries: [(status: Character, path: String)] = [("M", "groups/friends.members"), ("A", "people/katie.jpg")]
        let current = ["groups/friends.json": Self.group("Friends"), "people/katie.json": Self.person("Katie", "Bell")]
        #expect(message(entries, current: current) == "contacts: edit Katie Bell; edit group Friends")
    }

    @Test func usesTheStoresCompositeNameFormat() {
        let current = [
            "store.json": Data("{\"compositeNameFormat\": \"lastNameFirst\", \"formatVersion\": 1}\n".utf8),
            "people/katie.json": Self.person("Katie", "Bell"),
        ]
        #expect(message([("A", "people/katie.json")], current: current) == "contacts: add Bell Katie")
    }

    @Test func anUnreadableRecordIsNamedByItsKey() {
        let current = ["people/katie-bell-9dw42k.json": Data("<<<<<<< ours\n".utf8)]
        let entries: [(status: Character, path: String)] = [
            ("M", "people/katie-bell-9dw42k.json"), ("D", "groups/friends-abc123.json"),
        ]
        #expect(message(entries, current: current) == "contacts: edit katie-bell-9dw42k; remove group friends-abc123")
    }

    @Test func creatingTheStoreIsNamedAsSuch() {
        #expect(message([("A", "store.json")], current: [:]) == "contacts: create the store")
    }

    @Test func pastFiveChangesTheBodyListsEveryOne() {
        let names = ["a", "b", "c", "d", "e", "f", "g"]
        let entries = names.map { (status: Character("A"), path: "people/\($0).json") }
        let message = message(entries, current: [:])
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "contacts: add a; add b; add c; add d; add e; and 2 more")
        #expect(lines.dropFirst().first == "")
        #expect(Array(lines.dropFirst(2)) == names.map { "add \($0)" })
    }

    @Test func anErrorReadingARecordStopsTheMessage() {
        #expect(throws: Unreadable.self) {
            try StoreCommitMessage.make([("D", "people/katie.json")]) { _, _ throws(Unreadable) -> Data? in throw Unreadable() }
        }
    }

    @Test func anUnreadableManifestFallsBackToFirstNameFirst() throws {
        let result = try StoreCommitMessage.make([("A", "people/katie.json")]) { path, _ throws(Unreadable) -> Data? in
            guard path == "people/katie.json" else { throw Unreadable() }
            return Self.person("Katie", "Bell")
        }
        #expect(result == "contacts: add Katie Bell")
    }
}
