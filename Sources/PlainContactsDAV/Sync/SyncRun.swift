import FoundationEssentials
import PlainContacts
import PlainContactsSystem

/// The state of one sync while it runs: both sides read, the decisions, and what was done.
/// ``ContactSync`` drives it; the steps live in `SyncRun+Local`, `+Remote` and `+CarryOut`.
struct SyncRun {
    /// One contact's card on the server, as read.
    struct RemoteEntry {
        var href: String
        var etag: String
        var kind: SyncStatusFile.Entry.Kind?
        /// The card, when it was fetched (new or changed since the status).
        var card: CardMapping.Card? {
            get { fetched?.card }
            set { fetched = newValue.map(FetchedCard.init) }
        }
        /// The card behind a reference: an entry is looked at ten thousand times a sync, and a
        /// card held inline would be copied each time.
        private var fetched: FetchedCard?

        init(href: String, etag: String, kind: SyncStatusFile.Entry.Kind?, card: CardMapping.Card?) {
            self.href = href
            self.etag = etag
            self.kind = kind
            self.card = card
        }
    }

    /// A fetched card, shared by the copies of its entry.
    final class FetchedCard {
        let card: CardMapping.Card

        init(_ card: CardMapping.Card) {
            self.card = card
        }
    }

    /// What to record for a contact once the store is saved.
    enum Outcome {
        /// The status stays as it was (nothing done, or a conflict left).
        case keep
        /// The contact is gone from both sides.
        case forget
        /// Both sides hold the same contact now: the card at this href and ETag.
        case synced(kind: SyncStatusFile.Entry.Kind, href: String, etag: String)
    }

    let book: AddressBook
    let remote: any RemoteAddressBook
    var status: SyncStatusFile
    /// The status as read, so that one this sync did not change is not written again.
    let readStatus: SyncStatusFile
    let options: ContactSync.Options
    var bases = SyncBaseFile()
    var report = SyncReport()

    /// The store's people and groups by UID, with the fingerprint of each.
    let people: SyncPeople
    var groups: [String: Group] = [:]
    /// Groups whose UID another record read first has: the same contact, by UID.
    var duplicateGroups: [String: [Group]] = [:]
    var localFingerprints: [String: String] = [:]

    /// The server's cards by UID; UIDs left out of this sync (unreadable cards, one UID used
    /// twice); the collection's new markers.
    var remoteEntries: [String: RemoteEntry] = [:]
    var skipped: Set<String> = []
    var newSyncToken: String?
    var newCtag: String?

    var actions: [(uid: String, action: SyncDecision.Action)] = []
    var outcomes: [String: Outcome] = [:]
    /// Group cards whose members are set once new people are saved.
    var pendingMembers: [(Group, GroupCard)] = []
    /// The bytes of the person files the sync's save wrote, by key.
    var savedPeopleFiles: [RecordKey: Data] = [:]

    init(book: AddressBook, remote: any RemoteAddressBook, status: SyncStatusFile, options: ContactSync.Options) {
        self.book = book
        self.remote = remote
        self.status = status
        readStatus = status
        self.options = options
        people = SyncPeople(book: book)
    }

    /// Decides every contact's action; ``actions`` holds those that do something, in UID order.
    mutating func decide() {
        // Every contact is in the status, or on one side only since the last sync: ten thousand
        // UIDs are neither gathered into one set nor sorted, and each is looked up as few times
        // as its decision needs.
        var decided: [(uid: String, action: SyncDecision.Action)] = []
        var clashes: [(uid: String, warning: SyncError)] = []
        // Entries are looked for by index: a lookup of the value would copy it whole.
        let entries = status.entries
        var unrecorded: Set<String> = []
        people.forEachUID { uid in if entries.index(forKey: uid) == nil { unrecorded.insert(uid) } }
        for uid in groups.keys where entries.index(forKey: uid) == nil { unrecorded.insert(uid) }
        for uid in remoteEntries.keys where entries.index(forKey: uid) == nil { unrecorded.insert(uid) }
        func note(_ decision: Decision?, of uid: String) {
            switch decision {
            case .act(let action): decided.append((uid, action))
            case .clash(let warning): clashes.append((uid, warning))
            case nil: break
            }
        }
        for index in entries.indices {
            let uid = entries.keys[index]
            let recorded = SyncStatus(localFingerprint: entries.values[index].localFingerprint, remoteETag: entries.values[index].etag)
            note(decision(uid, status: recorded), of: uid)
        }
        for uid in unrecorded { note(decision(uid, status: nil), of: uid) }
        report.warnings += clashes.sorted { $0.uid < $1.uid }.map(\.warning)
        actions = decided.sorted { $0.uid < $1.uid }
    }

    /// What ``decide()`` does with one contact.
    private enum Decision {
        case act(SyncDecision.Action)
        /// The store and the server hold records of different kinds under this UID.
        case clash(SyncError)
    }

    /// One contact's decision, from the status's record of it (`nil` for none); `nil` when
    /// nothing is to be done.
    private func decision(_ uid: String, status recorded: SyncStatus?) -> Decision? {
        if !skipped.isEmpty, skipped.contains(uid) { return nil }
        let remote = remoteEntries[uid]
        if let remote, let remoteKind = remote.kind, let localKind = clashingLocalKind(uid, remoteKind: remoteKind) {
            return .clash(
                SyncError(
                    .uidClash,
                    "the store has a \(localKind.rawValue) and the server a \(remoteKind.rawValue) card with this UID; left as they are",
                    path: remote.href))
        }
        let action = SyncDecision.action(
            status: recorded, localFingerprint: localFingerprints[uid], remoteETag: remote?.etag, prefer: options.prefer)
        return action == .nothing ? nil : .act(action)
    }

    /// The kind of the store's record with this UID when it is not the server card's kind.
    private func clashingLocalKind(_ uid: String, remoteKind: SyncStatusFile.Entry.Kind) -> SyncStatusFile.Entry.Kind? {
        switch remoteKind {
        case .person: !groups.isEmpty && groups[uid] != nil && !people.contains(uid) ? .group : nil
        case .group: people.contains(uid) ? .person : nil
        }
    }

    /// Refuses a sync that removes too much, unless forced.
    func checkRemovals() throws {
        let decided = actions.map(\.action)
        guard !options.force,
            SyncDecision.removesTooMuch(decided, localCount: people.count + groups.count, remoteCount: remoteEntries.count)
        else { return }
        let local = decided.filter(\.removesLocally).count
        let remote = decided.filter(\.removesRemotely).count
        throw SyncError(.tooManyRemovals,
            "the sync would remove \(local) of \(people.count + groups.count) records from the store and \(remote) of "
                + "\(remoteEntries.count) cards from the server; nothing was changed. Check the remote's URL and account, "
                + "then run the sync again with --force if this is what you want",
            path: self.remote.url)
    }

    /// The report of a dry run: what each action would do.
    func plannedReport() -> SyncReport {
        var planned = report
        planned.dryRun = true
        for (uid, action) in actions {
            let local = people.contains(uid) || groups[uid] != nil
            switch action {
            case .nothing, .forget: break
            case .upload: if remoteEntries[uid] == nil { planned.remote.added += 1 } else { planned.remote.changed += 1 }
            case .restoreRemote: planned.remote.added += 1
            case .download: if local { planned.local.changed += 1 } else { planned.local.added += 1 }
            case .restoreLocal: planned.local.added += 1
            case .merge:
                planned.local.changed += 1
                planned.remote.changed += 1
            case .deleteRemote: planned.remote.removed += 1
            case .deleteLocal: planned.local.removed += 1
            }
        }
        return planned
    }

    /// The fingerprint of what a person says: its content and its image's bytes
    /// (``PlainContacts/Person/contentFingerprints()``), so that a rewrite
    /// of the record file that changes no content (a settled record ID, another clone's
    /// modification date, a Git merge) is not a change to sync. It starts with
    /// ``contentFingerprintMark``; older statuses hold the fingerprint of the file's bytes.
    func fingerprint(of person: Person) -> String {
        let (content, image) = person.contentFingerprints()
        return Self.contentFingerprintMark + Self.hex(content.value) + (image.map { Self.hex($0.value) } ?? "")
    }

    /// The first character of a content fingerprint (see ``fingerprint(of:)``).
    static let contentFingerprintMark = "c"

    /// Whether a status recorded the fingerprint of a record file's bytes, as statuses did
    /// before content fingerprints: exactly 16 hexadecimal digits. The length tells them apart,
    /// not the mark: one file fingerprint in sixteen begins with `c` too.
    static func isFileFingerprint(_ recorded: String) -> Bool {
        recorded.utf8.count == 16
    }

    /// The fingerprint a status made before content fingerprints recorded for a person: that
    /// of its record file's bytes (the ones read, else those a save would write).
    func fileFingerprint(of person: Person) -> String {
        Self.hex(book.recordFileFingerprint(of: person).value)
    }

    /// The fingerprint of a group's card form.
    static func fingerprint(of card: GroupCard) -> String {
        hex(Fingerprint(CanonicalJSON.encode(card.json)).value)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
