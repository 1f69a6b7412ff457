import Foundation

/// Saving, reverting and the unsaved-changes check.
extension AddressBook {
    /// Whether the book differs from what it last loaded or saved
    /// (`ABAddressBookHasUnsavedChanges`).
    ///
    /// Derived by comparing each record with its saved snapshot, so a value changed and then
    /// changed back is not an unsaved change.
    public var hasUnsavedChanges: Bool {
        if !addedPeople.isEmpty || !removedPeople.isEmpty || !addedGroups.isEmpty || !removedGroups.isEmpty {
            return true
        }
        if manifest != savedManifest { return true }
        for key in touchedPeople {
            guard let person = people[key], let saved = savedPeople[key] else { continue }
            if person.state != saved.state { return true }
        }
        for (key, group) in groups {
            guard let saved = savedGroups[key] else { return true }
            if group.state != saved.state { return true }
            if (memberships[key] ?? []) != saved.members { return true }
        }
        return false
    }

    /// Discards unsaved changes and reloads the store from disk (`ABAddressBookRevert`).
    ///
    /// Records handed out before are detached from the book; fetch them again by ID.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` and the other reading errors of
    ///   ``init(url:options:)``.
    public func revert() throws {
        if accessPending { return }
        let loaded = try StoreSession(layout: layout, options: options).read { try StoreLoader(layout: layout).load() }
        for person in people.values { person.book = nil }
        for person in addedPeople { person.book = nil }
        for person in removedPeople.values { person.book = nil }
        for group in groups.values { group.book = nil }
        for group in addedGroups { group.book = nil }
        for group in removedGroups.values { group.book = nil }
        manifest = loaded.manifest
        savedManifest = loaded.manifest
        install(loaded)
    }

    /// Writes the book's changes to the store (`ABAddressBookSave`).
    ///
    /// Only records that changed are written, each with deterministic bytes; the whole save is
    /// one all-or-nothing commit. New records receive their record IDs and file keys here.
    /// Saving a book without changes does nothing.
    ///
    /// - Throws: ``ContactsError/Code/busy`` when another process holds the store for longer than
    ///   ``AddressBookOptions/lockTimeout``; ``ContactsError/Code/personNotSaved`` when a new
    ///   member's file was deleted by someone else; ``ContactsError/Code/io`` when writing fails.
    ///   On error nothing is written and the book keeps its unsaved changes.
    public func save() throws {
        try checkWritable()
        guard hasUnsavedChanges else { return }
        let outcome = try StoreSession(layout: layout, options: options).write { session in
            let plan = try SavePlan(book: self, session: session, now: Timestamp.truncated(Date()))
            try plan.verifyMembershipsAgainstDisk()
            changeCenter.ignore(plan.changes)
            // The index is extended only if it described the folders before this commit.
            let index = IndexMaintenance(layout: layout).currentIndex()
            try session.commit(plan.changes)
            IndexMaintenance(layout: layout).record(plan, index: index, catalog: &catalog)
            return plan
        }
        apply(outcome)
    }

    /// Brings the in-memory snapshots up to date with a committed save.
    private func apply(_ plan: SavePlan) {
        savedPersonCount += plan.writtenPeople.filter { savedPeople[$0.key] == nil }.count - plan.deletedPeople.count
        for key in plan.deletedPeople {
            removedPeople[key]?.book = nil
            removedPeople[key] = nil
            groupsLeftByRemovedPeople[key] = nil
            savedPeople[key] = nil
        }
        for key in plan.deletedGroups {
            removedGroups[key]?.book = nil
            removedGroups[key] = nil
            membersOfRemovedGroups[key] = nil
            savedGroups[key] = nil
        }
        for written in plan.writtenPeople {
            let person = written.person
            person.key = written.key
            person.recordID = written.id
            person.state = written.state
            people[written.key] = person
            peopleByID[written.id] = written.key
            savedPeople[written.key] = SavedPerson(id: written.id, state: written.state, fingerprint: written.fingerprint)
        }
        addedPeople = []
        touchedPeople = []
        for written in plan.writtenGroups {
            let group = written.group
            group.key = written.key
            group.recordID = written.id
            group.state = written.state
            groups[written.key] = group
            groupsByID[written.id] = written.key
            let members = memberships[written.key] ?? []
            savedGroups[written.key] = SavedGroup(
                id: written.id, state: written.state, members: members, fingerprint: written.fingerprint,
                membersFingerprint: savedGroups[written.key]?.membersFingerprint)
        }
        addedGroups = []
        for (key, fingerprint) in plan.writtenMembers {
            let members = plan.mergedMembers[key] ?? memberships[key] ?? []
            // Keys of people this book has not loaded (added elsewhere) are kept, so that a later
            // save does not drop them; the member lists skip them.
            memberships[key] = members
            savedGroups[key]?.members = members
            savedGroups[key]?.membersFingerprint = fingerprint
        }
        if let merged = plan.manifest { manifest = merged }
        savedManifest = manifest
    }
}
