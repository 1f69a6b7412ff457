/// Which people belong to which groups in an address book, as person keys per group key, with
/// what removals took so that undoing them gives it back.
///
/// A removed person leaves every group; a removed group takes its member list with it. Adding
/// either back before the save restores what it had, even when both were removed: a person put
/// back into a group that is still removed rejoins it when the group comes back.
struct MembershipTable {
    /// The members of each group of the book, saved or not yet saved.
    private(set) var membersByGroup: [RecordKey: Set<RecordKey>] = [:]
    /// The members each removed group had, given back if the removal is undone.
    private var membersOfRemovedGroups: [RecordKey: Set<RecordKey>] = [:]
    /// The groups each removed person left, given back if the removal is undone.
    private var groupsLeftByRemovedPeople: [RecordKey: Set<RecordKey>] = [:]

    /// The members of a group, or `nil` for a group the table does not know.
    func members(of group: RecordKey) -> Set<RecordKey>? {
        membersByGroup[group]
    }

    /// Whether a person belongs to a group.
    func contains(_ person: RecordKey, in group: RecordKey) -> Bool {
        membersByGroup[group]?.contains(person) ?? false
    }

    /// Sets a group's members, as loaded or as a save merged them with the disk.
    mutating func setMembers(_ members: Set<RecordKey>, of group: RecordKey) {
        membersByGroup[group] = members
    }

    /// Adds a person to a group.
    mutating func insert(_ person: RecordKey, into group: RecordKey) {
        membersByGroup[group, default: []].insert(person)
    }

    /// Takes a person out of a group.
    mutating func remove(_ person: RecordKey, from group: RecordKey) {
        membersByGroup[group]?.remove(person)
    }

    /// Adds `survivor` to every group `duplicate` belongs to, as merging two people does.
    mutating func addToGroups(of duplicate: RecordKey, _ survivor: RecordKey) {
        for (group, members) in membersByGroup where members.contains(duplicate) {
            membersByGroup[group]?.insert(survivor)
        }
    }

    // MARK: Removals

    /// Takes a removed person out of every group, remembering which.
    mutating func personRemoved(_ person: RecordKey) {
        var left = Set<RecordKey>()
        for (group, members) in membersByGroup where members.contains(person) {
            membersByGroup[group]?.remove(person)
            left.insert(group)
        }
        for (group, members) in membersOfRemovedGroups where members.contains(person) {
            membersOfRemovedGroups[group]?.remove(person)
            left.insert(group)
        }
        groupsLeftByRemovedPeople[person] = left
    }

    /// Puts a person whose removal was undone back into the groups it left, including groups
    /// removed since (the person comes back with them).
    mutating func personRestored(_ person: RecordKey) {
        for group in groupsLeftByRemovedPeople.removeValue(forKey: person) ?? [] {
            if membersByGroup[group] != nil {
                membersByGroup[group]?.insert(person)
            } else if membersOfRemovedGroups[group] != nil {
                membersOfRemovedGroups[group]?.insert(person)
            }
        }
    }

    /// Puts a removed group's members aside.
    mutating func groupRemoved(_ group: RecordKey) {
        membersOfRemovedGroups[group] = membersByGroup.removeValue(forKey: group) ?? []
    }

    /// Gives a group whose removal was undone its members back; `saved` is the member list it
    /// was loaded or last saved with, for a group that had none put aside.
    mutating func groupRestored(_ group: RecordKey, saved: Set<RecordKey>) {
        membersByGroup[group] = membersOfRemovedGroups.removeValue(forKey: group) ?? saved
    }

    /// Forgets what a removed person left, once a save deleted it.
    mutating func personDeleted(_ person: RecordKey) {
        groupsLeftByRemovedPeople[person] = nil
    }

    /// Forgets a removed group's members, once a save deleted it.
    mutating func groupDeleted(_ group: RecordKey) {
        membersOfRemovedGroups[group] = nil
    }
}
