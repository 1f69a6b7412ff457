import FoundationEssentials
import PlainContacts

/// The state of one sync while it runs: both sides read, the decisions, and what was done.
/// ``ContactSync`` drives it; the steps live in `SyncRun+Local`, `+Remote` and `+CarryOut`.
struct SyncRun {
    /// One contact's card on the server, as read.
    struct RemoteEntry {
        var href: String
        var etag: String
        var kind: SyncStatusFile.Entry.Kind?
        /// The card, when it was fetched (new or changed since the status).
        var card: CardMapping.Card?
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

    /// Decides every contact's action.
    mutating func decide() {
        var uids = people.uids.union(groups.keys).union(remoteEntries.keys).union(status.entries.keys)
        uids.subtract(skipped)
        for uid in uids.sorted() {
            let localKind: SyncStatusFile.Entry.Kind? = people.contains(uid) ? .person : groups[uid] != nil ? .group : nil
            if let localKind, let remoteKind = remoteEntries[uid]?.kind, localKind != remoteKind {
                report.warnings.append(
                    SyncError(
                        .uidClash, "the store has a \(localKind.rawValue) and the server a \(remoteKind.rawValue) card with this UID; left as they are",
                        path: remoteEntries[uid]?.href ?? uid))
                continue
            }
            let action = SyncDecision.action(
                status: status.entries[uid]?.status, localFingerprint: localFingerprints[uid],
                remoteETag: remoteEntries[uid]?.etag, prefer: options.prefer)
            actions.append((uid, action))
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

    /// The fingerprint of what a person says: its content (``RecordContent``, with a
    /// UID that export derives from its key left out) and its image's bytes, so that a rewrite
    /// of the record file that changes no content (a settled record ID, another clone's
    /// modification date, a Git merge) is not a change to sync. It starts with
    /// ``contentFingerprintMark``; older statuses hold the fingerprint of the file's bytes.
    func fingerprint(of person: Person) -> String {
        var state = RecordContent.of(person.state)
        if let key = person.key { VCardRecordFields.removeDerivedUID(from: &state, key: key) }
        var image = ""
        if case .stored = state.image {
            image = (try? person.imageData()).flatMap { $0 }.map { Self.hex(Fingerprint($0).value) } ?? ""
            state.image = .none
        }
        let record = Fingerprint(PersonRecordCoder.encode(id: RecordID(0), state: state)).value
        return Self.contentFingerprintMark + Self.hex(record) + image
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
        if let fingerprint = book.savedFingerprint(of: person) {
            return Self.hex(fingerprint.value)
        }
        return Self.hex(Fingerprint(PersonRecordCoder.encode(id: person.recordID, state: person.state)).value)
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
