import FoundationEssentials
import PlainContacts
import PlainContactsSystem

/// Carrying out a sync's decisions: server writes, each on a condition, and the store's edits,
/// saved together at the end.
extension SyncRun {
    /// Carries out every decision in UID order. Server writes come first; the store is saved
    /// by ``saveStore()`` and the status recorded by ``recordStatus(in:)`` only afterwards.
    mutating func carryOut() throws {
        let needingCards = actions.compactMap { uid, action -> String? in
            switch action {
            case .download, .restoreLocal, .merge: uid
            default: nil
            }
        }
        try fetchMissingCards(needingCards)
        let total = actions.filter { $0.action != .nothing && $0.action != .forget }.count
        var done = 0
        for (uid, action) in actions {
            switch action {
            case .nothing:
                outcomes[uid] = .keep
                continue
            case .forget:
                outcomes[uid] = .forget
                continue
            case .upload:
                try upload(uid, replacing: remoteEntries[uid] != nil)
            case .restoreRemote:
                report.kept.append(.init(uid: uid, recordID: people[uid]?.recordID ?? groups[uid]?.recordID, keptLocal: true))
                try upload(uid, replacing: false)
            case .download:
                try download(uid)
            case .restoreLocal:
                report.kept.append(.init(uid: uid, recordID: nil, keptLocal: false))
                try download(uid)
            case .merge(let base, let prefer):
                try merge(uid, withBase: base, prefer: prefer)
            case .deleteRemote:
                try deleteRemote(uid)
            case .deleteLocal:
                try deleteLocal(uid)
            }
            done += 1
            options.progress?(SyncProgress(phase: .writing, done: done, total: total))
        }
    }

    // MARK: Server writes

    /// Writes the store's version to the server: over the known card (`If-Match`), or as a new
    /// card (`If-None-Match: *`). A card changed on the server meanwhile (412) is read again and
    /// merged, never overwritten.
    mutating func upload(_ uid: String, replacing: Bool) throws {
        guard let data = try localData(uid), let kind = localKind(uid) else { return }
        do {
            let version: RemoteCardVersion
            if replacing, let entry = remoteEntries[uid] {
                version = try remote.updateCard(at: entry.href, data: data, etag: entry.etag)
                report.remote.changed += 1
            } else {
                version = try remote.createCard(named: CardMapping.fileName(forUID: uid), data: data)
                report.remote.added += 1
            }
            outcomes[uid] = .synced(kind: kind, href: version.href, etag: version.etag)
        } catch let error as SyncError where error.code == .preconditionFailed {
            try reread(uid, after: error)
        } catch let error as SyncError where error.code == .readOnly {
            keepRefused(uid, error)
        }
    }

    /// A change the server refused because the account may only read the address book: kept
    /// in the store, not recorded as synced, and reported; the next sync tries again.
    private mutating func keepRefused(_ uid: String, _ error: SyncError) {
        report.warnings.append(
            SyncError(.readOnly, "the account may only read this address book: the change stays in the store, not on the server",
                path: error.path))
        outcomes[uid] = .keep
    }

    /// After a 412: reads the server's card again and merges it with the store's version.
    private mutating func reread(_ uid: String, after error: SyncError) throws {
        guard let href = remoteEntries[uid]?.href, let card = try remote.fetchCards([href]).first else {
            // A new card whose name is taken by a card this sync did not list: the next sync
            // lists it and matches it by UID.
            report.warnings.append(
                SyncError(.preconditionFailed, "the server refused the card because one of that name appeared meanwhile; the next sync will pair them",
                    path: remote.url))
            outcomes[uid] = .keep
            return
        }
        remoteEntries[uid] = RemoteEntry(
            href: card.href, etag: card.etag, kind: localKind(uid), card: try Self.read(card))
        try merge(uid, withBase: status.entries[uid] != nil, prefer: options.prefer, retrying: false)
    }

    /// Removes the card from the server; one changed there meanwhile is downloaded instead.
    mutating func deleteRemote(_ uid: String) throws {
        guard let entry = remoteEntries[uid] else { return }
        do {
            try remote.deleteCard(at: entry.href, etag: entry.etag)
            report.remote.removed += 1
            outcomes[uid] = .forget
        } catch let error as SyncError where error.code == .preconditionFailed {
            guard let card = try remote.fetchCards([entry.href]).first else {
                outcomes[uid] = .forget
                return
            }
            let read = try Self.read(card)
            remoteEntries[uid] = RemoteEntry(href: card.href, etag: card.etag, kind: read.kind, card: read)
            report.kept.append(.init(uid: uid, recordID: nil, keptLocal: false))
            try download(uid)
        } catch let error as SyncError where error.code == .readOnly {
            keepRefused(uid, error)
        }
    }

    // MARK: Store edits

    /// Puts the server's card into the store: a new record, or the record merged with it (the
    /// server's version wins where they differ, since the store's did not change).
    mutating func download(_ uid: String) throws {
        guard let entry = remoteEntries[uid], let card = entry.card else {
            outcomes[uid] = .keep
            return
        }
        switch card {
        case .person(let theirs, _, let placement):
            // The store's version did not change since the last sync: the card wins. Dated by
            // the card's REV, when it has one: every clone taking the card writes the same bytes.
            let applied = try book.applyCard(
                theirs, to: people[uid], merging: .cardWins(datedByCard: true), placement: placement)
            switch applied.change {
            case .added:
                people[uid] = applied.person
                report.local.added += 1
            case .changed: report.local.changed += 1
            case .unchanged, .conflicted: break
            }
        case .group(let groupCard, let placement):
            let before = groups[uid].map(cardForm(of:))
            let group = try apply(groupCard, to: groups[uid], placement: placement)
            if before == nil {
                groups[uid] = group
                report.local.added += 1
            } else if before != groupCard {
                report.local.changed += 1
            }
        }
        outcomes[uid] = .synced(kind: card.kind, href: entry.href, etag: entry.etag)
    }

    /// Removes the record from the store, and every other record with its UID.
    mutating func deleteLocal(_ uid: String) throws {
        if let person = people[uid] {
            try book.remove(person)
            people[uid] = nil
        } else if let group = groups[uid] {
            try book.remove(group)
            groups[uid] = nil
        }
        for person in people.duplicates.removeValue(forKey: uid) ?? [] { try book.remove(person) }
        for group in duplicateGroups.removeValue(forKey: uid) ?? [] { try book.remove(group) }
        report.local.removed += 1
        outcomes[uid] = .forget
    }

    // MARK: Merging

    /// Merges both sides' versions property by property; a clean merge goes to whichever side
    /// lacks it, a conflict is reported and leaves both sides as they are.
    mutating func merge(_ uid: String, withBase: Bool, prefer: MergePreference?, retrying: Bool = true) throws {
        guard let entry = remoteEntries[uid], let card = entry.card else {
            outcomes[uid] = .keep
            return
        }
        let merged: MergedVersion
        switch card {
        case .person(let theirs, _, _):
            guard let person = people[uid] else { return try download(uid) }
            let applied = try book.applyCard(
                theirs, to: person,
                merging: .threeWay(base: withBase ? bases.person(uid) : nil, prefer: prefer, history: options.history))
            switch applied.change {
            case .conflicted(let properties): return leaveConflict(uid, recordID: person.recordID, properties: properties)
            case .changed: report.local.changed += 1
            case .added, .unchanged: break
            }
            merged = applied.saysCard ? .same : .differs(CardMapping.data(for: person, imageData: try person.imageData()))
        case .group(let theirs, _):
            guard let group = groups[uid] else { return try download(uid) }
            let ours = cardForm(of: group)
            guard let result = GroupCard.merge(base: withBase ? bases.group(uid) : nil, ours: ours, theirs: theirs, prefer: prefer)
            else {
                return leaveConflict(uid, recordID: group.recordID, properties: ["name"])
            }
            try apply(result, to: group)
            if result != ours { report.local.changed += 1 }
            merged = result == theirs ? .same : .differs(result.serialized(key: group.key, id: group.recordID))
        }
        guard case .differs(let data) = merged else {
            outcomes[uid] = .synced(kind: card.kind, href: entry.href, etag: entry.etag)
            return
        }
        do {
            let version = try remote.updateCard(at: entry.href, data: data, etag: entry.etag)
            report.remote.changed += 1
            outcomes[uid] = .synced(kind: card.kind, href: version.href, etag: version.etag)
        } catch let error as SyncError where error.code == .preconditionFailed {
            guard retrying else {
                return leaveConflict(uid, recordID: people[uid]?.recordID ?? groups[uid]?.recordID, properties: ["card"])
            }
            try reread(uid, after: error)
        } catch let error as SyncError where error.code == .readOnly {
            keepRefused(uid, error)
        }
    }

    private enum MergedVersion {
        case same
        case differs(Data)
    }

    private mutating func leaveConflict(_ uid: String, recordID: RecordID?, properties: [String]) {
        report.conflicts.append(.init(uid: uid, recordID: recordID, properties: properties))
        outcomes[uid] = .keep
    }

    // MARK: Local versions

    private func localKind(_ uid: String) -> SyncStatusFile.Entry.Kind? {
        people.contains(uid) ? .person : groups[uid] != nil ? .group : nil
    }

    private func localData(_ uid: String) throws -> Data? {
        if let person = people[uid] { return CardMapping.data(for: person, imageData: try person.imageData()) }
        if let group = groups[uid] { return cardForm(of: group).serialized(key: group.key, id: group.recordID) }
        return nil
    }

    // MARK: Saving

    /// Saves the store: the records first, then the group members that new records needed
    /// keys for.
    mutating func saveStore() throws {
        savedPeopleFiles = try book.saveReportingWrittenPeople()
        try applyPendingMembers()
        for (key, data) in try book.saveReportingWrittenPeople() { savedPeopleFiles[key] = data }
    }

    /// Records the status of every contact after the save. While a conflict or an unreadable
    /// card is left, the sync token is not advanced, so that the next sync reads those cards
    /// again.
    mutating func recordStatus(in folder: URL) throws {
        for (uid, outcome) in outcomes {
            switch outcome {
            case .keep:
                continue
            case .forget:
                status.entries[uid] = nil
                bases.remove(uid)
            case .synced(let kind, let href, let etag):
                if let person = people[uid] {
                    status.entries[uid] = .init(kind: kind, href: href, etag: etag, localFingerprint: fingerprint(of: person))
                    // The record file just saved holds the version, already encoded.
                    if let key = person.key, let saved = savedPeopleFiles[key] ?? (try? DeviceFiles.read(URL(filePath: personPath(key)))),
                        saved.isEmpty == false, Fingerprint(saved) == book.recordFile(ofPersonWithKey: key).savedFingerprint
                    {
                        bases.setPerson(recordFile: saved, for: uid)
                    } else {
                        bases.setPerson(person.state, id: person.recordID, for: uid)
                    }
                } else if let group = groups[uid] {
                    let card = cardForm(of: group)
                    status.entries[uid] = .init(kind: kind, href: href, etag: etag, localFingerprint: Self.fingerprint(of: card))
                    bases.setGroup(card, for: uid)
                }
            }
        }
        // People read for this sync and unchanged since the last get their file's signature
        // recorded, so that the next sync need not read them.
        for (uid, person) in people.read {
            guard var entry = status.entries[uid], entry.kind == .person, let key = person.key else { continue }
            let current = fingerprint(of: person)
            // An entry of an older status that was found unchanged takes the content fingerprint.
            guard entry.localFingerprint == current || entry.localFingerprint == localFingerprints[uid] else { continue }
            entry.localFingerprint = current
            entry.key = key.rawValue
            entry.signature = FileSignature.of(personPath(key))
            status.entries[uid] = entry
        }
        bases.keepOnly(Set(status.entries.keys))
        status.url = remote.url
        if report.conflicts.isEmpty && skipped.isEmpty {
            status.syncToken = newSyncToken
            status.ctag = newCtag
        } else {
            status.ctag = nil
        }
        try bases.save(in: folder)
        // Unchanged, it shares the storage of what was read: the comparison is immediate, and
        // ten thousand lines are not written out only to be found the same.
        if status != readStatus { try status.save(in: folder) }
    }
}
