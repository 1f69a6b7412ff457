import FoundationEssentials
import PlainContactsSystem

/// Keeps the index in step with a save, under the save's exclusive lock.
///
/// The index may be extended only if it described the folders exactly before the commit (its
/// folder signatures were current); the save's records and the folders' new signatures are
/// then appended to its log, so that the next open trusts it without a scan. When it was
/// already out of date, it is left so: the next operation over all people rescans.
struct IndexMaintenance {
    let layout: StoreLayout

    /// The index on disk when it describes the folders as they are, else `nil`.
    func currentIndex() -> StoreIndex? {
        guard let index = StoreIndex.load(layout),
            index.peopleFolder == FileSignature.of(layout.peopleFolder.path),
            index.groupsFolder == FileSignature.of(layout.groupsFolder.path)
        else { return nil }
        return index
    }

    /// Whether the index on disk describes the folders as they are.
    func isCurrent() -> Bool { currentIndex() != nil }

    /// Records a committed save in the index (and in the book's catalog, when it has one).
    func record(_ plan: SavePlan, index: StoreIndex?, catalog: inout [RecordKey: PersonSummary]?) {
        // Taken before the signatures, so that no write after them can look like one before.
        let checkedAt = PersonCatalog.now()
        var updated: [PersonSummary] = []
        var added: [PersonSummary] = []
        for written in plan.writtenPeople {
            let path = layout.personFile(written.key).path
            guard let signature = FileSignature.of(path) else { continue }
            let summary = PersonSummary(
                key: written.key, signature: signature,
                decoded: .init(id: written.id, state: written.state, storedNameHash: written.state.nameHash))
            if written.isNew { added.append(summary) } else { updated.append(summary) }
            catalog?[written.key] = summary
        }
        for key in plan.deletedPeople { catalog?[key] = nil }

        guard let index else { return }
        let peopleFolder = FileSignature.of(layout.peopleFolder.path)
        let groupsFolder = FileSignature.of(layout.groupsFolder.path)
        do {
            try index.append(
                updated: updated, added: added, removed: plan.deletedPeople, peopleFolder: peopleFolder,
                groupsFolder: groupsFolder, checkedAt: checkedAt, layout: layout)
            if index.needsCompaction, let fresh = StoreIndex.load(layout, including: .summaries),
                fresh.peopleFolder == peopleFolder
            {
                // A damaged summary: the base cannot be compacted from, so drop the cache.
                guard let summaries = fresh.allSummaries() else {
                    StoreIndex.remove(layout)
                    return
                }
                // The old base's time, not now: a summary from the log is trusted only as of
                // when it was taken, and the new base records one time for all of them. The
                // last listing is kept: a save that wrote or removed people changed the
                // folder, so it vouches for nothing, and after one that did not it still holds.
                try StoreIndex.write(
                    summaries, peopleFolder: peopleFolder, groupsFolder: groupsFolder, listing: fresh.listing,
                    builtAt: fresh.builtAt, layout: layout)
            }
        } catch {
            // A cache that cannot be updated must not be trusted: remove it.
            StoreIndex.remove(layout)
        }
    }
}
