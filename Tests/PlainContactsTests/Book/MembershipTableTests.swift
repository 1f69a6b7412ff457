import Testing
@testable import PlainContacts

@Suite struct MembershipTableTests {
    private let friends = RecordKey(rawValue: "friends")!
    private let family = RecordKey(rawValue: "family")!
    private let katie = RecordKey(rawValue: "katie")!
    private let john = RecordKey(rawValue: "john")!

    private func table() -> MembershipTable {
        var table = MembershipTable()
        table.setMembers([katie, john], of: friends)
        table.setMembers([katie], of: family)
        return table
    }

    @Test func aRemovedPersonLeavesEveryGroupAndComesBackToThem() {
        var table = table()
        table.personRemoved(katie)
        #expect(table.members(of: friends) == [john])
        #expect(table.members(of: family) == [])

        table.personRestored(katie)
        #expect(table.members(of: friends) == [katie, john])
        #expect(table.members(of: family) == [katie])
    }

    @Test func aRemovedGroupTakesItsMembersAndGivesThemBack() {
        var table = table()
        table.groupRemoved(friends)
        #expect(table.members(of: friends) == nil)

        table.groupRestored(friends, saved: [])
        #expect(table.members(of: friends) == [katie, john])
    }

    @Test func aPersonAndAGroupRemovedAndRestoredInAnyOrderKeepTheirMembership() {
        var personFirst = table()
        personFirst.personRemoved(katie)
        personFirst.groupRemoved(friends)
        personFirst.personRestored(katie)
        personFirst.groupRestored(friends, saved: [])
        #expect(personFirst.members(of: friends) == [katie, john])

        var groupFirst = table()
        groupFirst.groupRemoved(friends)
        groupFirst.personRemoved(katie)
        groupFirst.groupRestored(friends, saved: [])
        #expect(groupFirst.members(of: friends) == [john])
        groupFirst.personRestored(katie)
        #expect(groupFirst.members(of: friends) == [katie, john])
        #expect(groupFirst.members(of: family) == [katie])
    }

    @Test func aRestoredGroupWithNothingPutAsideTakesItsSavedMembers() {
        var table = MembershipTable()
        table.groupRestored(friends, saved: [john])
        #expect(table.members(of: friends) == [john])
    }

    @Test func aDeletedPersonIsNotPutBackIntoItsGroups() {
        var table = table()
        table.personRemoved(katie)
        table.personDeleted(katie)
        table.personRestored(katie)
        #expect(table.members(of: friends) == [john])
    }

    @Test func mergingAddsTheSurvivorToTheDuplicatesGroups() {
        var table = table()
        table.addToGroups(of: katie, john)
        #expect(table.members(of: family) == [katie, john])
        #expect(table.contains(john, in: family))
    }
}
