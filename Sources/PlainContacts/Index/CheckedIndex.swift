import Glibc
import PlainContactsSystem

/// The index with every summary confirmed against its person file, without listing
/// `people/` and without decoding the summaries: what an operation over all people (a mail
/// client's address query above all) starts from when nothing changed behind the store's back.
///
/// Confirming takes one `fstat` of `people/` and one `fstatat` per person file, spread over
/// the cores; the summaries stay bytes in the index, read in place (``summaries(where:)``),
/// and only those an operation keeps become ``PersonSummary`` values. It succeeds only when
/// both of these hold, and otherwise gives `nil`, so that the caller lists and checks the
/// files as ``PersonCatalog`` always did:
///
/// 1. **The names are the index's keys.** The folder's signature is the one of the last
///    listing a scan recorded, and that listing was settled (``FolderListing``). A file added,
///    removed or renamed since (a save, `git checkout`, `git pull`, which removes and creates
///    files, an editor that writes a new file and renames it over the old one) changed the
///    folder's status-change time, which no program can set back, so the folder no longer
///    has that signature. The summaries are exactly the listed names: a scan records the
///    listing after its summaries, in the same base or as the last record of the same append
///    to the log, and any later change to the set of names changes the folder as well.
/// 2. **Every file is as its summary says.** Each name is a regular file whose signature
///    (inode, size, modification and status-change times in nanoseconds) equals the
///    summary's, and that last changed more than ``FileSignature/racyWindow`` before the
///    summary was taken. A write inside a file, which leaves the folder alone (an editor
///    saving in place, `echo >>`), changes the file's times; an in-place write that keeps the
///    size and even restores the modification time still changes the status-change time. The
///    window rules out a write in the same clock tick as the summary, as Git's "racily clean"
///    entries do.
///
/// Either failing costs one full scan, which reads what changed and records it (and a new
/// listing) so that the next operation is confirmed again. Clocks are taken to move forward,
/// as Git's checks assume. Settled duplicate IDs are left to the full scan.
///
/// ```swift
/// if let checked = CheckedIndex(confirming: index, layout: layout) {
///     let withAddresses = checked.summaries { { $0.emailCount > 0 } }
/// }
/// ```
struct CheckedIndex: Sendable {
    /// The index it confirms, loaded with its summaries.
    let index: StoreIndex
    /// Where the base's summaries that the log leaves in place lie in the index's summaries
    /// section, each already checked as ``SummaryBytes/hasValidLayout``.
    let baseEntries: [Range<Int>]
    /// The summaries the log holds (people written or found changed since the base).
    let loggedSummaries: [PersonSummary]

    /// The number of people.
    var count: Int { baseEntries.count + loggedSummaries.count }

    /// Confirms an index loaded with its summaries (``StoreIndex/Extent/summaries``) against
    /// the files; `nil` when the folder or any file differs from what the index says, or when
    /// the index is damaged, has no listing or notes duplicate IDs.
    init?(confirming index: StoreIndex, layout: StoreLayout) {
        guard !index.hasDuplicateIDs, let listing = index.listing, let entries = index.entries else { return nil }
        let folder = open(layout.peopleFolder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        var status = stat()
        guard fstat(folder, &status) == 0, listing.vouches(for: FileSignature(status)),
            let baseEntries = Self.entries(index.entryBodies, of: entries.buffer, leaving: index.overrides.keys)
        else { return nil }
        var logged: [PersonSummary] = []
        for case let (_, summary?) in index.overrides { logged.append(summary) }
        guard baseEntries.count + logged.count == index.count else { return nil }

        // The base's summaries were all taken when it was built.
        let builtAt = index.builtAt
        let confirmed = Parallel.map(baseEntries.count, minimumChunk: 1024) { position in
            let summary = SummaryBytes(buffer: entries.buffer, body: baseEntries[position])
            guard summary.hasValidLayout, let key = summary.key, let signature = summary.signature else { return false }
            return Self.fileMatches(signature, takenAt: builtAt, name: key, in: folder)
        }
        guard !confirmed.contains(false) else { return nil }
        for summary in logged {
            var key = summary.key.rawValue
            let matches = key.withUTF8 { name in
                Self.fileMatches(
                    summary.signature, takenAt: index.checkTime(of: summary.key), name: UnsafeRawBufferPointer(name),
                    in: folder)
            }
            guard matches else { return nil }
        }
        self.index = index
        self.baseEntries = baseEntries
        loggedSummaries = logged
    }

    /// Whether the index on disk may be confirmed at all: it has a listing whose folder
    /// signature `people/` still has. Costs one `stat`, so that a scan after a save does not
    /// read every summary only to find the folder changed.
    static func mayConfirm(_ index: StoreIndex, layout: StoreLayout) -> Bool {
        guard !index.hasDuplicateIDs, let listing = index.listing else { return false }
        var status = stat()
        return stat(layout.peopleFolder.path, &status) == 0 && listing.vouches(for: FileSignature(status))
    }

    /// Every summary as a ``PersonSummary``, by key, to make the full catalog from; `nil`
    /// only if a summary cannot be decoded, which the confirmation has ruled out.
    func allSummaries() -> [RecordKey: PersonSummary]? {
        index.allSummaries()
    }

    /// The summaries that pass a test, each read in place first: only those kept are
    /// decoded. The base's summaries are tested on all cores, each core with a test of its own
    /// from `makeTest` (so that a test may keep scratch space). The order is the base's (by
    /// key), then the log's.
    ///
    /// ```swift
    /// let withAddresses = checked.summaries { { $0.emailCount > 0 } }
    /// ```
    func summaries(where makeTest: @Sendable () -> (SummaryBytes) -> Bool) -> [PersonSummary] {
        var kept: [PersonSummary] = []
        if let entries = index.entries {
            let baseEntries = baseEntries
            let passed = Parallel.mapChunks(baseEntries.count, minimumChunk: 2048) { range in
                let test = makeTest()
                return range.filter { test(SummaryBytes(buffer: entries.buffer, body: baseEntries[$0])) }
            }
            for position in passed.joined() {
                // The layout and key were checked when the index was confirmed.
                if let summary = try? PersonSummary.decode(body: baseEntries[position], sharing: entries) {
                    kept.append(summary)
                }
            }
        }
        let test = makeTest()
        for summary in loggedSummaries where summary.withBytes(test) {
            kept.append(summary)
        }
        return kept
    }

    /// The bodies of the base's summaries, leaving out those whose key is in `replaced`
    /// (people the log wrote or removed since); `nil` when a summary has no key.
    static func entries(
        _ bodies: [Range<Int>], of section: UnsafeRawBufferPointer, leaving replaced: some Collection<String>
    ) -> [Range<Int>]? {
        guard !replaced.isEmpty else { return bodies }
        let replacedKeys = replaced.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var entries: [Range<Int>] = []
        entries.reserveCapacity(bodies.count)
        for body in bodies {
            guard let key = SummaryBytes(buffer: section, body: body).key else { return nil }
            if !contains(replacedKeys, key) { entries.append(body) }
        }
        return entries
    }

    /// Whether sorted byte strings contain `key`: a binary search.
    static func contains(_ sorted: [[UInt8]], _ key: UnsafeRawBufferPointer) -> Bool {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            let order = sorted[middle].withUnsafeBytes { candidate -> Int32 in
                let common = Swift.min(candidate.count, key.count)
                if common > 0, let a = candidate.baseAddress, let b = key.baseAddress {
                    let order = memcmp(a, b, common)
                    if order != 0 { return order }
                }
                return candidate.count == key.count ? 0 : candidate.count < key.count ? -1 : 1
            }
            if order == 0 { return true }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// Whether the person file `name` + `.json` in the open folder is a regular file with the
    /// signature a summary taken at `takenAt` recorded, and had last changed long enough before
    /// then (``FileSignature/racyWindow``) for any later write to change that signature.
    static func fileMatches(
        _ expected: FileSignature, takenAt: Int64, name: UnsafeRawBufferPointer, in folder: Int32
    ) -> Bool {
        guard RecordKey.isValid(name) else { return false }
        let suffix: StaticString = ".json"
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + suffix.utf8CodeUnitCount + 1) {
            path in
            guard let base = path.baseAddress, let nameBase = name.baseAddress else { return false }
            memcpy(base, nameBase, name.count)
            memcpy(base + name.count, suffix.utf8Start, suffix.utf8CodeUnitCount)
            base[name.count + suffix.utf8CodeUnitCount] = 0
            var status = stat()
            let found = base.withMemoryRebound(to: CChar.self, capacity: path.count) {
                fstatat(folder, $0, &status, AT_SYMLINK_NOFOLLOW) == 0
            }
            guard found, status.st_mode & S_IFMT == S_IFREG else { return false }
            let signature = FileSignature(status)
            return signature == expected && signature.latest < takenAt - FileSignature.racyWindow
        }
    }
}
