import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookGroupsTests {
    /// A book with a saved group and a saved person.
    private func savedGroupAndPerson(_ store: TemporaryStore) throws -> (AddressBook, Group, Person) {
        let book = try store.makeBook()
        let friends = Group(name: "Friends")
        let katie = makePerson("Katie", "Bell")
        try book.add(friends)
        try book.add(katie)
        try book.save()
        return (book, friends, katie)
    }

    @Test func addingAnUnsavedPersonToAGroupFailsWithPersonNotSaved() throws {
        let store = try TemporaryStore()
        let (book, friends, _) = try savedGroupAndPerson(store)
        let newcomer = makePerson("John", "Appleseed")
        try book.add(newcomer)
        #expect {
            try friends.addMember(newcomer)
        } throws: { ($0 as? ContactsError)?.code == .personNotSaved }
        let loose = makePerson("Loose", "Person")
        #expect {
            try friends.addMember(loose)
        } throws: { ($0 as? ContactsError)?.code == .personNotSaved }
    }

    @Test func addingToAnUnsavedGroupFailsWithGroupNotSaved() throws {
        let store = try TemporaryStore()
        let (book, _, katie) = try savedGroupAndPerson(store)
        let loose = Group(name: "Loose")
        #expect {
            try loose.addMember(katie)
        } throws: { ($0 as? ContactsError)?.code == .groupNotSaved }
        let pending = Group(name: "Pending")
        try book.add(pending)
        #expect {
            try pending.addMember(katie)
        } throws: { ($0 as? ContactsError)?.code == .groupNotSaved }
    }

    @Test func theSeedProcedureAddSaveAddToGroupSaveWorks() throws {
        let store = try TemporaryStore()
        let (book, friends, _) = try savedGroupAndPerson(store)
        let john = makePerson("John", "Appleseed")
        try book.add(john)
        try book.save()
        try friends.addMember(john)
        try book.save()
        let reopened = try store.openBook()
        let group = try #require(reopened.group(withID: friends.recordID))
        #expect(group.members().map(\.lastName) == ["Appleseed"])
        #expect(group.name == "Friends")
        #expect(group.recordType == .group)
    }

    @Test func membershipFilesHoldOneSortedKeyPerLine() throws {
        let store = try TemporaryStore()
        let (book, friends, katie) = try savedGroupAndPerson(store)
        let john = makePerson("John", "Appleseed")
        try book.add(john)
        try book.save()
        try friends.addMember(katie)
        try friends.addMember(john)
        try book.save()
        let groupKey = try #require(friends.key).rawValue
        let keys = [try #require(katie.key).rawValue, try #require(john.key).rawValue].sorted()
        #expect(try store.read("groups/\(groupKey).members") == keys.joined(separator: "\n") + "\n")
    }

    @Test func removingAPersonRemovesItsMembershipsWhenSaved() throws {
        let store = try TemporaryStore()
        let (book, friends, katie) = try savedGroupAndPerson(store)
        try friends.addMember(katie)
        try book.save()
        try book.remove(katie)
        #expect(friends.members().isEmpty)
        try book.save()
        let groupKey = try #require(friends.key).rawValue
        #expect(try store.read("groups/\(groupKey).members") == "")
        let reopened = try store.openBook()
        #expect(try #require(reopened.group(withID: friends.recordID)).members().isEmpty)
    }

    @Test func removingTheLastMemberKeepsAnEmptyMembershipFile() throws {
        let store = try TemporaryStore()
        let (book, friends, katie) = try savedGroupAndPerson(store)
        try friends.addMember(katie)
        try book.save()
        try friends.removeMember(katie)
        try book.save()
        let groupKey = try #require(friends.key).rawValue
        #expect(try store.read("groups/\(groupKey).members") == "")
        let reopened = try store.openBook()
        #expect(try #require(reopened.group(withID: friends.recordID)).members().isEmpty)
        #expect(!reopened.hasUnsavedChanges)
    }

    @Test func aNewGroupIsSavedWithAnEmptyMembershipFile() throws {
        let store = try TemporaryStore()
        let (_, friends, _) = try savedGroupAndPerson(store)
        let groupKey = try #require(friends.key).rawValue
        #expect(try store.read("groups/\(groupKey).members") == "")
        let reopened = try store.openBook()
        #expect(try #require(reopened.group(withID: friends.recordID)).members().isEmpty)
        #expect(!reopened.hasUnsavedChanges)
    }

    @Test func loadingToleratesDuplicateAndDanglingMembershipLines() throws {
        let store = try TemporaryStore()
        let (book, friends, katie) = try savedGroupAndPerson(store)
        try friends.addMember(katie)
        try book.save()
        let groupKey = try #require(friends.key).rawValue
        let katieKey = try #require(katie.key).rawValue
        try store.write("\(katieKey)\n\(katieKey)\r\n\nnobody-abcdef\n", to: "groups/\(groupKey).members")
        let reopened = try store.openBook()
        #expect(reopened.group(withID: friends.recordID)?.members().count == 1)
        #expect(!reopened.hasUnsavedChanges)
    }

    @Test func membersAreSortedByTheRequestedOrdering() throws {
        let store = try TemporaryStore()
        let (book, friends, katie) = try savedGroupAndPerson(store)
        let anna = makePerson("Anna", "Haro")
        let zed = makePerson("Zed", "Appleseed")
        try book.add(anna)
        try book.add(zed)
        try book.save()
        for person in [katie, anna, zed] { try friends.addMember(person) }
        try book.save()
        #expect(friends.members(sortedBy: .lastName).map(\.lastName) == ["Appleseed", "Bell", "Haro"])
        #expect(friends.members(sortedBy: .firstName).map(\.firstName) == ["Anna", "Katie", "Zed"])
    }

    @Test func renamingAGroupRewritesOnlyTheGroupFile() throws {
        let store = try TemporaryStore()
        let (book, friends, katie) = try savedGroupAndPerson(store)
        try friends.addMember(katie)
        try book.save()
        let groupKey = try #require(friends.key).rawValue
        let members = try Data(contentsOf: store.path("groups/\(groupKey).members"))
        friends.name = "Close Friends"
        try book.save()
        #expect(try Data(contentsOf: store.path("groups/\(groupKey).members")) == members)
        #expect(try store.read("groups/\(groupKey).json").contains("\"name\": \"Close Friends\""))
        #expect(try store.openBook().group(withID: friends.recordID)?.name == "Close Friends")
    }

    @Test func removingAGroupDeletesItsFilesButKeepsItsMembers() throws {
        let store = try TemporaryStore()
        let (book, friends, katie) = try savedGroupAndPerson(store)
        try friends.addMember(katie)
        try book.save()
        try book.remove(friends)
        try book.save()
        #expect(try store.files(in: "groups").isEmpty)
        #expect(book.groupCount == 0)
        #expect(book.personCount == 1)
    }

    @Test func groupPropertiesAreTypeChecked() throws {
        let group = Group(name: "Friends")
        #expect(group.value(for: .groupName) == .string("Friends"))
        #expect {
            try group.setValue(.string("x"), for: .firstName)
        } throws: { ($0 as? ContactsError)?.code == .unknownProperty }
        #expect {
            try group.setValue(.kind(.person), for: .groupName)
        } throws: { ($0 as? ContactsError)?.code == .propertyTypeMismatch }
        try group.setValue(.string("Family"), for: .groupName)
        #expect(group.name == "Family")
        group.removeValue(for: .groupName)
        #expect(group.name == nil)
    }

    @Test func groupsContainingAPersonAreListed() throws {
        let store = try TemporaryStore()
        let (book, friends, katie) = try savedGroupAndPerson(store)
        let family = Group(name: "Family")
        try book.add(family)
        try book.save()
        try friends.addMember(katie)
        try family.addMember(katie)
        #expect(book.groups(containing: katie).map(\.name) == ["Family", "Friends"])
        try friends.removeMember(katie)
        #expect(book.groups(containing: katie).map(\.name) == ["Family"])
        #expect(book.allGroups().count == 2)
        #expect(book.groups(named: "Family").count == 1)
    }
}

@Suite struct AddressBookUndoneRemovalTests {
    /// A saved book with Katie and John both in Friends, and Katie also in Family.
    private func savedBook(_ store: TemporaryStore) throws -> (AddressBook, friends: Group, family: Group, katie: Person) {
        let book = try store.makeBook()
        let friends = Group(name: "Friends")
        let family = Group(name: "Family")
        let katie = makePerson("Katie", "Bell")
        let john = makePerson("John", "Appleseed")
        for record in [friends, family] { try book.add(record) }
        for person in [katie, john] { try book.add(person) }
        try book.save()
        try friends.addMember(katie)
        try friends.addMember(john)
        try family.addMember(katie)
        try book.save()
        return (book, friends, family, katie)
    }

    @Test func addingBackARemovedPersonBeforeSavingKeepsItsGroups() throws {
        let store = try TemporaryStore()
        let (book, friends, family, katie) = try savedBook(store)
        try book.remove(katie)
        try book.add(katie)
        #expect(!book.hasUnsavedChanges)
        try book.save()
        let reopened = try store.openBook()
        let savedFriends = try #require(reopened.group(withID: friends.recordID))
        let savedFamily = try #require(reopened.group(withID: family.recordID))
        #expect(Set(savedFriends.members().map(\.recordID)).contains(katie.recordID))
        #expect(savedFriends.members().count == 2)
        #expect(savedFamily.members().map(\.recordID) == [katie.recordID])
    }

    @Test func addingBackARemovedGroupBeforeSavingKeepsItsUnsavedMembers() throws {
        let store = try TemporaryStore()
        let (book, friends, _, katie) = try savedBook(store)
        try friends.removeMember(katie)
        try book.remove(friends)
        try book.add(friends)
        try book.save()
        let reopened = try store.openBook()
        let savedFriends = try #require(reopened.group(withID: friends.recordID))
        #expect(savedFriends.members().map(\.lastName) == ["Appleseed"])
    }

    @Test func undoingBothRemovalsRestoresTheMembershipBetweenThem() throws {
        let store = try TemporaryStore()
        let (book, friends, _, katie) = try savedBook(store)
        try book.remove(katie)
        try book.remove(friends)
        try book.add(katie)
        try book.add(friends)
        #expect(!book.hasUnsavedChanges)
        try book.save()
        let reopened = try store.openBook()
        let savedFriends = try #require(reopened.group(withID: friends.recordID))
        #expect(savedFriends.members().count == 2)
    }

    @Test func aSavedRemovalStillTakesThePersonOutOfItsGroups() throws {
        let store = try TemporaryStore()
        let (book, friends, family, katie) = try savedBook(store)
        try book.remove(katie)
        try book.save()
        let reopened = try store.openBook()
        #expect(try #require(reopened.group(withID: friends.recordID)).members().map(\.lastName) == ["Appleseed"])
        #expect(try #require(reopened.group(withID: family.recordID)).members().isEmpty)
    }
}
