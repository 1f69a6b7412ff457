import PlainContacts
import PlainContactsSystem

/// Brings a ``CardDAVEntryTable`` up to date with the store's files, cheaply: it makes again the
/// cards of the records the store's ``StoreFolderWatch`` says changed since the last time.
///
/// The first time, and whenever the watch cannot tell (its queue overflowed, a folder was
/// replaced) or where the system gives no inotify, it lists the people and groups folders
/// instead and compares every file's signature (inode, size, times) with the one recorded when
/// its card was made, and says so in the log. So changes made by the server, by the CLI, by a
/// `git pull` or by an editor are all seen.
///
/// After a bulk change (an import, a pull of thousands of records) it takes only what a listing
/// needs of each person's card, its UID and ETag, from the record file
/// (``CardDAVCardMaker/listedPeople(_:)``), and gives the names of the cards it
/// did not make, for the ``CardDAVCardWarmer``.
///
/// The watch has a second listener: the ``CardDAVWriter``'s book, which asks what the watch heard
/// since it last asked (``newsForBook()``) before each write, to know whether others changed the
/// store (see ``CardDAVOpenBook``).
///
/// ```swift
/// var refresher = CardDAVRefresher(layout: layout, log: log)
/// var changes = CardDAVStateChanges()
/// var uidChanged = false
/// let unmade = try refresher.refresh(&table, maker: maker, changes: &changes, uidChanged: &uidChanged)
/// ```
struct CardDAVRefresher {
    /// How many people must have changed together for their cards not to be made at once
    /// (see ``CardDAVCardMaker/listedPeople(_:)``).
    static let bulkChange = 256

    /// What the watch told that is still to be looked at.
    private struct Heard {
        var people = Set<RecordKey>()
        var groups = Set<RecordKey>()
        /// Why every file must be looked at, when the names are not enough.
        var everything: StoreFolderWatch.Reason?
    }

    /// What tells which files changed; `nil` where the system gives no inotify.
    private var watch: StoreFolderWatch?
    /// Whether every file was looked at since the watch started: only then is the watch's news
    /// all there is to look at.
    private var lookedAtEverything = false
    /// How many times every file was looked at.
    private(set) var fullLooks = 0
    /// Records the watch named that are still to be looked at.
    private var heard = Heard()
    /// Records the watch named since the book last asked.
    private var heardForBook = Heard()
    /// Where the refresher says why it looks at every file.
    private let log: @Sendable (String) -> Void

    /// A refresher of a store's cards; the store's folders are watched from now on.
    init(layout: StoreLayout, log: @escaping @Sendable (String) -> Void) {
        self.log = log
        watch = StoreFolderWatch(layout: layout)
        if watch == nil {
            log("no inotify watch on \(layout.root.path(percentEncoded: false)): every listing looks at every record file")
        }
    }

    /// Adds what the watch heard since it was last asked to what is still to be looked at, for
    /// the cards and for the book. A watch whose queue cannot be read any more says so once, as
    /// ``StoreFolderWatch/Reason/unreadable``, and is dropped: from then on every file is looked
    /// at.
    mutating func listen() {
        switch watch?.news() {
        case .records(let people, let groups)?:
            heard.people.formUnion(people)
            heard.groups.formUnion(groups)
            heardForBook.people.formUnion(people)
            heardForBook.groups.formUnion(groups)
        case .everything(let reason)?:
            heard.everything = heard.everything ?? reason
            heardForBook.everything = heardForBook.everything ?? reason
            if reason == .unreadable {
                watch = nil
                log("the store's change queue stopped: every listing now looks at every record file")
            }
        case nil:
            break
        }
    }

    /// What the watch heard since the last call: the records whose files changed, or
    /// `everything` when it cannot tell (there is no watch, or it broke).
    mutating func newsForBook() -> StoreFolderWatch.News {
        listen()
        defer { heardForBook = Heard() }
        guard watch != nil else { return .everything(.unreadable) }
        if let reason = heardForBook.everything { return .everything(reason) }
        return .records(people: heardForBook.people, groups: heardForBook.groups)
    }

    /// Takes a record out of what is still to be looked at: a write that reads its files just
    /// after listening saw what the watch heard of it.
    mutating func forget(_ record: CardDAVEntry.Record) {
        switch record.kind {
        case .person: heard.people.remove(record.key)
        case .group: heard.groups.remove(record.key)
        }
    }

    /// Makes again the cards of the records the watch named since the last time, or, when it
    /// cannot tell, of every record whose files' signatures differ from those recorded; with
    /// `regroup`, every group card is made again (a member's UID changed). Gives the names of
    /// the cards a bulk change listed without making.
    ///
    /// - Throws: the errors of listing the store's folders.
    mutating func refresh(
        _ table: inout CardDAVEntryTable, maker: CardDAVCardMaker, regroup: Bool = false,
        changes: inout CardDAVStateChanges, uidChanged: inout Bool
    ) throws -> [String] {
        var changed: (people: Set<RecordKey>, groups: Set<RecordKey>)?
        listen()
        if lookedAtEverything {
            if let reason = heard.everything {
                log("looking at every record file: \(reason.rawValue)")
            } else {
                changed = (heard.people, heard.groups)
            }
        }
        heard = Heard()
        if changed == nil {
            lookedAtEverything = watch != nil
            fullLooks += 1
        }
        let people = try staleRecords(.person, in: &table, maker: maker, changes: &changes, among: changed?.people)
        // The people's cards are looked at on all cores. After a bulk change (an import, a
        // pull) only what the listing needs of each is taken, its UID and ETag; their cards are
        // made when asked for.
        let made: [CardDAVCardMaker.Outcome]
        if people.count >= Self.bulkChange {
            made = maker.listedPeople(people)
            table.reserveCapacity(adding: people.count)
        } else {
            made = Parallel.map(people.count, minimumChunk: 64) { index in
                maker.outcome(.init(kind: .person, key: people[index])) { _ in nil }
            }
        }
        var unmade: [String] = []
        for (key, outcome) in zip(people, made) {
            let record = CardDAVEntry.Record(kind: .person, key: key)
            if table.apply(outcome, to: record, changes: &changes, uidChanged: &uidChanged) == nil, case .made = outcome,
                let name = table.names[record]
            {
                unmade.append(name)
            }
        }
        let everyGroup = regroup || uidChanged
        let groups = try staleRecords(
            .group, in: &table, maker: maker, changes: &changes, among: everyGroup ? nil : changed?.groups, all: everyGroup)
        for key in groups {
            _ = table.update(.init(kind: .group, key: key), maker: maker, changes: &changes, uidChanged: &uidChanged)
        }
        return unmade
    }

    /// The keys of the records of one kind whose files changed since their cards were made (or
    /// all of them): every one of `among` when given (a file the watch named is read again
    /// whatever its signature, which a write in the clock tick of the last read can leave as it
    /// was), else those of every file whose signature differs; records whose files are gone are
    /// removed on the way.
    private func staleRecords(
        _ kind: CardDAVEntry.Record.Kind, in table: inout CardDAVEntryTable, maker: CardDAVCardMaker,
        changes: inout CardDAVStateChanges, among: Set<RecordKey>? = nil, all: Bool = false
    ) throws -> [RecordKey] {
        // A named record whose file is gone is removed when its card is made (it is missing).
        if let among { return among.sorted { $0.rawValue < $1.rawValue } }
        let keys = try maker.keys(of: kind)
        let signatures = all ? [] : maker.signatures(of: kind, keys: keys)
        var stale: [RecordKey] = []
        // Records named and still there are counted: when every named record of this kind is,
        // none is gone, and the names need not be looked at again.
        var named = 0
        for (index, key) in keys.enumerated() {
            guard let name = table.names[CardDAVEntry.Record(kind: kind, key: key)] else {
                if !all { stale.append(key) }
                continue
            }
            named += 1
            if !all, !table.hasSignatures(signatures[index], name: name) { stale.append(key) }
        }
        if named < table.names.keys.count(where: { $0.kind == kind }) {
            let present = Set(keys)
            for (record, _) in table.names where record.kind == kind && !present.contains(record.key) {
                table.remove(record, changes: &changes)
            }
        }
        return all ? keys : stale
    }
}
