import FoundationEssentials
import Glibc
import PlainContactsSystem

/// Every person of a store as summaries, checked against the files: the full validation the
/// index gets before any operation that looks at all people.
///
/// The scan lists `people/` and takes each file's ``FileSignature``. A summary from the index
/// is reused only when its signature is identical and the file last changed at least two
/// seconds before the summary was taken (a file changed in the same clock tick as an earlier
/// scan could otherwise look unchanged); every other file is read and parsed. The result is
/// therefore exactly what reading every file would give, at the cost of one `stat` per file.
///
/// While `people/` is as the last scan listed it, the listing is skipped: ``check(layout:index:)``
/// first tries to confirm the index as it is (``CheckedIndex``), with the same `stat` of every
/// file, and lists and reads only when that fails. A scan records its listing
/// (``FolderListing``) when the folder had settled, so that the next one can skip it.
struct PersonCatalog: Sendable {
    var summaries: [RecordKey: PersonSummary]
    /// Files the scan had to read, already parsed, so that the book need not read them twice.
    var freshlyRead: [RecordKey: StoreReader.PersonFile]
    /// Whether the scan found the index missing or out of date (and wrote a new one).
    var rebuiltIndex: Bool
    /// Whether two people might share a record ID; `false` only when the index proves not.
    var mayShareIDs = true

    /// How long before its summary was taken a file must have last changed to be trusted.
    static let racyWindow = FileSignature.racyWindow

    /// What a look at every person file found.
    enum Outcome {
        /// Every file is as the index says: the index, confirmed without listing the folder
        /// or decoding its summaries; `recordedFolders` when the folders' new signatures were
        /// appended to its log (a group changed), so that the next open trusts it.
        case confirmed(CheckedIndex, recordedFolders: Bool)
        /// The files were listed and checked, those that changed read, and the index brought
        /// up to date.
        case scanned(PersonCatalog)
    }

    /// Checks every person file against the index: confirms the index as it is when the
    /// folder is as the last scan listed it and no file changed (``CheckedIndex``), and scans
    /// otherwise.
    ///
    /// - Throws: the errors of ``scan(layout:index:)``, only when the index is not confirmed.
    ///
    /// With `askingWatcher`, a reading command first asks `contacts watch` which files changed
    /// since the index last vouched for every file (``IndexWatchMark``), and looks at those
    /// only; when no watcher answers, or it cannot tell, the full check runs, and a confirmed
    /// index is marked with the watcher's token so that the next command can ask.
    static func check(layout: StoreLayout, index: StoreIndex?, askingWatcher: Bool = false) throws -> Outcome {
        guard askingWatcher else { return try check(layout: layout, index: index, watched: nil) }
        let mark = IndexWatchMark.read(layout)
        let answer = IndexWatchMark.ask(layout, since: mark?.token)
        switch answer {
        case nil:
            return try check(layout: layout, index: index, watched: nil)
        case .changed(let now, let names)?:
            if let mark, let opened = index, mark.vouches(for: opened),
                let full = opened.extent >= .summaries ? opened : StoreIndex.load(layout, including: .summaries),
                let checked = CheckedIndex(confirming: full, vouchedBy: mark, changed: names, layout: layout)
            {
                if now != mark.token { IndexWatchMark(token: now, index: full).write(layout) }
                return .confirmed(checked, recordedFolders: false)
            }
            return try check(layout: layout, index: index, watched: now)
        case .unknown(let now)?:
            return try check(layout: layout, index: index, watched: now)
        }
    }

    /// The check without the watcher's help; an index confirmed against every file is marked
    /// with the watcher's token `watched`, taken before it began.
    private static func check(layout: StoreLayout, index: StoreIndex?, watched: ChangeToken?) throws -> Outcome {
        var index = index
        if let opened = index, CheckedIndex.mayConfirm(opened, layout: layout) {
            // Taken before the check, so that a change during it cannot look recorded.
            let peopleFolder = FileSignature.of(layout.peopleFolder.path)
            let groupsFolder = FileSignature.of(layout.groupsFolder.path)
            let startedAt = now()
            let full = opened.extent >= .summaries ? opened : StoreIndex.load(layout, including: .summaries)
            if let full, let checked = CheckedIndex(confirming: full, layout: layout) {
                // As a scan does: a folder whose signature moved on (a group file changed) is
                // recorded, or every later open would find the index stale.
                var recorded = false
                if full.peopleFolder != peopleFolder || full.groupsFolder != groupsFolder {
                    recorded = recordInLog(
                        full, updated: [], added: [], removed: [], peopleFolder: peopleFolder, groupsFolder: groupsFolder,
                        listing: nil, checkedAt: startedAt, layout: layout)
                }
                if let watched { IndexWatchMark(token: watched, index: full).write(layout) }
                return .confirmed(checked, recordedFolders: recorded)
            }
            index = full
        }
        return .scanned(try listAndCheck(layout: layout, index: index))
    }

    /// Scans the store, reusing what the index still knows, and brings the index up to date
    /// when anything differed: a few changes are appended to its log, more rewrite its base.
    /// An index confirmed as it is (``check(layout:index:)``) gives its summaries unchanged.
    ///
    /// A missing `people/` folder holds no people; an index that is missing or damaged is
    /// ignored and rebuilt from the files.
    ///
    /// - Throws: the reading errors of ``StoreReader`` for files that had to be read;
    ///   ``ContactsError/Code/malformedFile`` for a symbolic link in `people/` or a file in its
    ///   place; ``ContactsError/Code/permissionDenied`` or another code of ``PosixError`` when
    ///   `people/` exists but cannot be opened or listed.
    ///
    /// With `askingWatcher`, the check asks `contacts watch` first (see ``check(layout:index:askingWatcher:)``).
    static func scan(layout: StoreLayout, index: StoreIndex?, askingWatcher: Bool = false) throws -> PersonCatalog {
        switch try check(layout: layout, index: index, askingWatcher: askingWatcher) {
        case .confirmed(let checked, let recorded):
            return try PersonCatalog(confirmed: checked, recordedFolders: recorded) ?? listAndCheck(layout: layout, index: nil)
        case .scanned(let catalog):
            return catalog
        }
    }

    /// Lists `people/`, compares every file with the index and reads those that differ: the
    /// scan without the shortcut of ``check(layout:index:)``. Records the listing when the
    /// folder had settled.
    private static func listAndCheck(layout: StoreLayout, index: StoreIndex?) throws -> PersonCatalog {
        let peopleFolder = FileSignature.of(layout.peopleFolder.path)
        let groupsFolder = FileSignature.of(layout.groupsFolder.path)
        let startedAt = now()
        let folderPath = layout.peopleFolder.path
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder < 0 {
            // Only a folder that truly does not exist holds no people; any other failure
            // (permission, a file in its place, an I/O error) must never look like an empty store.
            let code = errno
            guard code == ENOENT else { throw StoreReader.folderError(folderPath, code: code, call: "open") }
            return PersonCatalog(summaries: [:], freshlyRead: [:], rebuiltIndex: false)
        }
        defer { close(folder) }
        // The signature of the folder as listed, taken after `startedAt` and before the names.
        var folderStatus = stat()
        let listing = fstat(folder, &folderStatus) == 0
            ? FolderListing(signature: FileSignature(folderStatus), listedAt: startedAt) : nil
        // Reading the index and listing the folder are independent: do both at once.
        let (loaded, listed) = Parallel.both(
            {
                let full = index.flatMap { $0.extent >= .summaries ? $0 : StoreIndex.load(layout, including: .summaries) }
                // A damaged summary discards the whole index: every file is then read.
                guard let full, let summaries = full.allSummaries() else {
                    return (index: StoreIndex?.none, summaries: [RecordKey: PersonSummary]())
                }
                return (index: full, summaries: summaries)
            },
            {
                Result {
                    try PersonCatalog.names(in: folder, path: folderPath).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                }
            })
        let index = loaded.index
        // Start from what the index knows and correct it file by file.
        var summaries = loaded.summaries
        let names = try listed.get()
        let knownCount = summaries.count
        let reader = StoreReader(layout: layout)
        var freshlyRead: [RecordKey: StoreReader.PersonFile] = [:]
        var updated: [PersonSummary] = []
        var added: [PersonSummary] = []
        let checks = check(names, in: folder, against: summaries, index: index)
        var confirmed = 0
        for (name, check) in zip(names, checks) {
            switch check {
            case .skipped:
                continue
            case .unreadable(let code):
                throw PosixError.error("cannot read the file's status", path: folderPath + "/" + name, code: code, call: "fstatat")
            case .link:
                throw ContactsError(
                    .malformedFile,
                    "is a symbolic link; the store never follows links out of its folder — replace it with the file itself",
                    path: folderPath + "/" + name)
            case .unchanged:
                confirmed += 1
            case .changed(let key, let signature, let wasKnown):
                guard let file = try reader.readPerson(key: key) else { continue }
                let summary = PersonSummary(key: key, signature: signature, decoded: file.decoded)
                summaries[key] = summary
                freshlyRead[key] = file
                if wasKnown {
                    confirmed += 1
                    updated.append(summary)
                } else {
                    added.append(summary)
                }
            }
        }
        var removed: [RecordKey] = []
        if confirmed < knownCount {
            var onDisk = Set<RecordKey>()
            for check in checks {
                switch check {
                case .unchanged(let key): onDisk.insert(key)
                case .changed(let key, _, _) where freshlyRead[key] != nil: onDisk.insert(key)
                default: break
                }
            }
            removed = summaries.keys.filter { !onDisk.contains($0) }
            for key in removed { summaries[key] = nil }
        }

        // Also record a change when only the folders' signatures moved on (a file came and
        // went, a group changed), or when the listing is one the index does not know yet:
        // otherwise every later open would find the index stale.
        let settledListing = listing.flatMap { $0.isSettled ? $0 : nil }
        let newListing = settledListing.flatMap { $0.signature != index?.listing?.signature ? $0 : nil }
        let changed = index == nil || !updated.isEmpty || !added.isEmpty || !removed.isEmpty
            || index?.peopleFolder != peopleFolder || index?.groupsFolder != groupsFolder || newListing != nil
        var mayShareIDs = index?.hasDuplicateIDs ?? true
        if changed {
            let recorded = index.map {
                recordInLog(
                    $0, updated: updated, added: added, removed: removed, peopleFolder: peopleFolder,
                    groupsFolder: groupsFolder, listing: newListing, checkedAt: startedAt, layout: layout)
            } ?? false
            if !recorded {
                mayShareIDs = (try? StoreIndex.write(
                    summaries, peopleFolder: peopleFolder, groupsFolder: groupsFolder, listing: settledListing,
                    builtAt: startedAt, layout: layout))
                    ?? true
            }
        }
        return PersonCatalog(
            summaries: summaries, freshlyRead: freshlyRead, rebuiltIndex: changed, mayShareIDs: mayShareIDs)
    }

    /// Records a scan's few changes in the index's log rather than rewriting the whole base
    /// (which costs a quarter of a second at 100,000 people), when that keeps the index
    /// exact: not too many changes, no change that would make two people share an ID (the
    /// base notes duplicates), and no other scan recorded anything meanwhile.
    private static func recordInLog(
        _ index: StoreIndex, updated: [PersonSummary], added: [PersonSummary], removed: [RecordKey],
        peopleFolder: FileSignature?, groupsFolder: FileSignature?, listing: FolderListing?, checkedAt: Int64,
        layout: StoreLayout
    ) -> Bool {
        let changes = updated.count + added.count + removed.count
        guard !index.hasDuplicateIDs, !index.needsCompaction, changes <= Swift.max(64, index.count / 32) else {
            return false
        }
        var newIDs = Set<RecordID>()
        for summary in updated + added {
            guard newIDs.insert(summary.id).inserted else { return false }
            if let holder = index.key(forID: summary.id), holder != summary.key, !removed.contains(holder) { return false }
        }
        return (try? index.append(
            updated: updated, added: added, removed: removed, peopleFolder: peopleFolder, groupsFolder: groupsFolder,
            listing: listing, checkedAt: checkedAt, onlyIfUnchanged: true, layout: layout)) ?? false
    }

    /// What the check of one file name found.
    enum Check {
        /// Not a person file: not a valid key, gone, or not a regular file.
        case skipped
        /// `lstat` failed for another reason than the file being gone, with this `errno`.
        case unreadable(Int32)
        /// A symbolic link, which the store refuses.
        case link
        /// The index's summary holds: same signature, and old enough to trust.
        case unchanged(RecordKey)
        /// The file must be read: new, changed, or too recently changed to trust.
        case changed(RecordKey, FileSignature, wasKnown: Bool)
    }

    /// `lstat` of every name in an open folder, compared with the summaries, split over the
    /// machine's cores: on a large store these calls are most of a scan's time, and the kernel
    /// serves them in parallel.
    static func check(
        _ names: [String], in folder: Int32, against known: [RecordKey: PersonSummary], index: StoreIndex?
    ) -> [Check] {
        Parallel.map(names.count, minimumChunk: 4096) { position in
            check(names[position], in: folder, against: known, index: index)
        }
    }

    private static func check(
        _ name: String, in folder: Int32, against known: [RecordKey: PersonSummary], index: StoreIndex?
    ) -> Check {
        guard let key = RecordKey(rawValue: String(name.dropLast(5))) else { return .skipped }
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            let code = errno
            return code == ENOENT ? .skipped : .unreadable(code)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: return .link
        default: return .skipped
        }
        let signature = FileSignature(status)
        guard let summary = known[key] else { return .changed(key, signature, wasKnown: false) }
        if summary.signature == signature, signature.latest < (index?.checkTime(of: key) ?? 0) - racyWindow {
            return .unchanged(key)
        }
        return .changed(key, signature, wasKnown: true)
    }

    /// The current time in nanoseconds since 1970, as file signatures count it.
    static func now() -> Int64 {
        FileSignature.now()
    }

    /// The entry names of an open folder.
    ///
    /// - Throws: a ``PosixError`` value naming the folder when it cannot be listed to the end:
    ///   a partial list would make the missing people look deleted.
    static func names(in folder: Int32, path: String) throws -> [String] {
        let copy = dup(folder)
        guard copy >= 0 else { throw StoreReader.folderError(path, code: errno, call: "dup") }
        guard let stream = fdopendir(copy) else {
            let code = errno
            close(copy)
            throw StoreReader.folderError(path, code: code, call: "fdopendir")
        }
        defer { closedir(stream) }
        let listing = PosixFileSystem.names(in: stream)
        guard listing.errno == 0 else { throw StoreReader.folderError(path, code: listing.errno, call: "readdir") }
        return listing.names
    }
}

extension PersonCatalog {
    /// A catalog of the summaries of an index confirmed against the files, or `nil` when a
    /// summary cannot be decoded.
    init?(confirmed: CheckedIndex, recordedFolders: Bool) {
        guard let summaries = confirmed.allSummaries() else { return nil }
        self.init(summaries: summaries, freshlyRead: [:], rebuiltIndex: recordedFolders, mayShareIDs: false)
    }
}
