import Dispatch
import FoundationEssentials
import Glibc

/// Every person of a store as summaries, checked against the files: the full validation the
/// index gets before any operation that looks at all people.
///
/// The scan lists `people/` and takes each file's ``FileSignature``. A summary from the index
/// is reused only when its signature is identical and the file last changed at least two
/// seconds before the summary was taken (a file changed in the same clock tick as an earlier
/// scan could otherwise look unchanged); every other file is read and parsed. The result is
/// therefore exactly what reading every file would give, at the cost of one `stat` per file.
package struct PersonCatalog: Sendable {
    package var summaries: [RecordKey: PersonSummary]
    /// Files the scan had to read, already parsed, so that the book need not read them twice.
    package var freshlyRead: [RecordKey: StoreReader.PersonFile]
    /// Whether the scan found the index missing or out of date (and wrote a new one).
    package var rebuiltIndex: Bool

    /// How long before its summary was taken a file must have last changed to be trusted.
    static let racyWindow: Int64 = 2_000_000_000

    /// Scans the store, reusing what the index still knows, and brings the index up to date
    /// when anything differed: a few changes are appended to its log, more rewrite its base.
    ///
    /// - Throws: the reading errors of ``StoreReader`` for files that had to be read, and
    ///   ``ContactsError/Code/malformedFile`` for a symbolic link in `people/`.
    package static func scan(layout: StoreLayout, index: StoreIndex?) throws -> PersonCatalog {
        let peopleFolder = FileSignature.of(layout.peopleFolder.path)
        let groupsFolder = FileSignature.of(layout.groupsFolder.path)
        let startedAt = now()
        let index = index.flatMap { $0.hasSummaries ? $0 : StoreIndex.load(layout, summaries: true) }
        // Start from what the index knows and correct it file by file.
        var summaries = index?.allSummaries() ?? [:]
        let knownCount = summaries.count
        let reader = StoreReader(layout: layout)
        var freshlyRead: [RecordKey: StoreReader.PersonFile] = [:]
        var updated: [PersonSummary] = []
        var added: [PersonSummary] = []
        let folderPath = layout.peopleFolder.path
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder < 0 {
            return PersonCatalog(summaries: [:], freshlyRead: [:], rebuiltIndex: false)
        }
        defer { close(folder) }
        let names = try names(in: folder, path: folderPath).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        let kinds = statuses(of: names, in: folder)
        var present: [RecordKey] = []
        present.reserveCapacity(names.count)
        var confirmed = 0
        for (name, status) in zip(names, kinds) {
            guard let key = RecordKey(rawValue: String(name.dropLast(5))) else { continue }
            let signature: FileSignature
            switch status {
            case .missing, .other: continue
            case .link:
                throw ContactsError(
                    .malformedFile,
                    "is a symbolic link; the store never follows links out of its folder — replace it with the file itself",
                    path: folderPath + "/" + name)
            case .file(let found): signature = found
            }
            let known = summaries[key]
            if let known, known.signature == signature,
                signature.latest < (index?.checkTime(of: key) ?? 0) - racyWindow
            {
                confirmed += 1
                present.append(key)
                continue
            }
            guard let file = try reader.readPerson(key: key) else { continue }
            let summary = PersonSummary(key: key, signature: signature, decoded: file.decoded)
            summaries[key] = summary
            freshlyRead[key] = file
            present.append(key)
            if known != nil {
                confirmed += 1
                updated.append(summary)
            } else {
                added.append(summary)
            }
        }
        var removed: [RecordKey] = []
        if confirmed < knownCount {
            let onDisk = Set(present)
            removed = summaries.keys.filter { !onDisk.contains($0) }
            for key in removed { summaries[key] = nil }
        }

        // Also record a change when only the folders' signatures moved on (a file came and
        // went, a group changed): otherwise every later open would find the index stale.
        let changed = index == nil || !updated.isEmpty || !added.isEmpty || !removed.isEmpty
            || index?.peopleFolder != peopleFolder || index?.groupsFolder != groupsFolder
        if changed {
            let recorded = index.map {
                recordInLog(
                    $0, updated: updated, added: added, removed: removed, peopleFolder: peopleFolder,
                    groupsFolder: groupsFolder, checkedAt: startedAt, layout: layout)
            } ?? false
            if !recorded {
                try? StoreIndex.write(
                    summaries, peopleFolder: peopleFolder, groupsFolder: groupsFolder, builtAt: startedAt, layout: layout)
            }
        }
        return PersonCatalog(summaries: summaries, freshlyRead: freshlyRead, rebuiltIndex: changed)
    }

    /// Records a scan's few changes in the index's log rather than rewriting the whole base
    /// (which costs a quarter of a second at 100,000 people), when that keeps the index
    /// exact: not too many changes, no change that would make two people share an ID (the
    /// base notes duplicates), and no other scan recorded anything meanwhile.
    private static func recordInLog(
        _ index: StoreIndex, updated: [PersonSummary], added: [PersonSummary], removed: [RecordKey],
        peopleFolder: FileSignature?, groupsFolder: FileSignature?, checkedAt: Int64, layout: StoreLayout
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
            checkedAt: checkedAt, onlyIfUnchanged: true, layout: layout)) ?? false
    }

    /// What `lstat` found for one name.
    enum Status {
        case missing, link, other
        case file(FileSignature)
    }

    /// `lstat` of every name in an open folder, split over the machine's cores: on a large
    /// store these calls are most of a scan's time, and the kernel serves them in parallel.
    static func statuses(of names: [String], in folder: Int32) -> [Status] {
        var results = [Status](repeating: .missing, count: names.count)
        let cores = Swift.max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let workers = Swift.min(cores, Swift.max(1, names.count / 4096))
        results.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return }
            let slots = Slots(start: start)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let range = (names.count * worker / workers)..<(names.count * (worker + 1) / workers)
                for position in range {
                    var status = stat()
                    guard fstatat(folder, names[position], &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                    switch status.st_mode & S_IFMT {
                    case S_IFREG: slots.start[position] = .file(FileSignature(status))
                    case S_IFLNK: slots.start[position] = .link
                    default: slots.start[position] = .other
                    }
                }
            }
        }
        return results
    }

    /// The result buffer shared by the workers of ``statuses(of:in:)``; each writes only its
    /// own range of positions.
    private struct Slots: @unchecked Sendable {
        let start: UnsafeMutablePointer<Status>
    }

    /// The current time in nanoseconds since 1970.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The entry names of an open folder.
    static func names(in folder: Int32, path: String) throws -> [String] {
        let copy = dup(folder)
        guard copy >= 0, let stream = fdopendir(copy) else {
            throw ContactsError(.io, "cannot list the folder", path: path)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
