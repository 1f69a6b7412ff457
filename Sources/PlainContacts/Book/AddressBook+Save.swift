import Foundation

/// Saving, reverting and the unsaved-changes check.
extension AddressBook {
    /// Whether the book differs from what it last loaded or saved
    /// (`ABAddressBookHasUnsavedChanges`).
    ///
    /// Derived by comparing each record with its saved snapshot, so a value changed and then
    /// changed back is not an unsaved change.
    public var hasUnsavedChanges: Bool {
        if people.hasAdditionsOrRemovals || groups.hasAdditionsOrRemovals { return true }
        if manifest != savedManifest { return true }
        for key in people.touched {
            guard let person = people.byKey[key], let saved = people.saved[key] else { continue }
            if person.state != saved.state { return true }
        }
        for key in groups.touched {
            guard let group = groups.byKey[key], let saved = groups.saved[key] else { continue }
            if group.state != saved.state { return true }
        }
        for key in groups.byKey.keys {
            if (memberships.members(of: key) ?? []) != groups.saved[key]?.members { return true }
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
        let loaded = try StoreSession(layout: layout, options: options).read {
            try StoreLoader(layout: layout, groupFileCache: options.groupFileCache).load()
        }
        manifest = loaded.manifest
        savedManifest = loaded.manifest
        install(loaded)
    }

    /// Forgets the people and groups added since the last save, keeping every other unsaved
    /// change: what an import that failed half-way added is taken back.
    func discardAdditions() {
        people.discardAdditions()
        groups.discardAdditions()
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
        _ = try commit()
    }

    /// Saves like ``save()`` and gives the bytes of every person file the save wrote, by key:
    /// what a sync records as each person's synced version without reading the files back.
    ///
    /// - Throws: The errors of ``save()``.
    package func saveReportingWrittenPeople() throws -> [RecordKey: Data] {
        guard let plan = try commit() else { return [:] }
        var files: [RecordKey: Data] = [:]
        for written in plan.writtenPeople { files[written.key] = written.data }
        return files
    }

    /// Commits the book's changes; `nil` when there were none.
    private func commit() throws -> SavePlan? {
        try checkWritable()
        guard hasUnsavedChanges else { return nil }
        // A confirmed index becomes the catalog first, which the save keeps up to date.
        if checked != nil { ensureCatalogQuietly() }
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
        return outcome
    }

    /// Brings the in-memory snapshots up to date with a committed save.
    private func apply(_ plan: SavePlan) {
        savedPersonCount += plan.writtenPeople.filter { people.saved[$0.key] == nil }.count - plan.deletedPeople.count
        for key in plan.deletedPeople {
            people.didDelete(key)
            memberships.personDeleted(key)
        }
        for key in plan.deletedGroups {
            groups.didDelete(key)
            memberships.groupDeleted(key)
        }
        for written in plan.writtenPeople {
            written.person.state = written.state
            people.didSave(
                written.person, key: written.key, id: written.id,
                snapshot: SavedPerson(id: written.id, state: written.state, fingerprint: written.fingerprint))
        }
        people.finishSave()
        for written in plan.writtenGroups {
            written.group.state = written.state
            let members = memberships.members(of: written.key) ?? []
            groups.didSave(
                written.group, key: written.key, id: written.id,
                snapshot: SavedGroup(
                    id: written.id, state: written.state, members: members, fingerprint: written.fingerprint,
                    membersFingerprint: groups.saved[written.key]?.membersFingerprint))
        }
        groups.finishSave()
        for (key, fingerprint) in plan.writtenMembers {
            let members = plan.mergedMembers[key] ?? memberships.members(of: key) ?? []
            // Keys of people this book has not loaded (added elsewhere) are kept, so that a later
            // save does not drop them; the member lists skip them.
            memberships.setMembers(members, of: key)
            groups.updateSnapshot(key) { saved in
                saved.members = members
                saved.membersFingerprint = fingerprint
            }
        }
        if let merged = plan.manifest { manifest = merged }
        savedManifest = manifest
    }
}
