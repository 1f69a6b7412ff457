import Glibc
import PlainContactsSystem

/// The index confirmed with the help of `contacts watch`: only the person files the watcher
/// names as changed since the index last vouched for every file are looked at.
extension CheckedIndex {
    /// Confirms an index loaded with its summaries from the watcher's answer: `mark` says the
    /// index was confirmed against every file at the watcher's token, and `changed` names the
    /// files (relative to the store's root) changed since. `nil` when the mark is not this
    /// index's, or any named person file differs from the index: a summary's file must match
    /// it as ``init(confirming:layout:)`` requires, and a name the index does not hold must
    /// have no file (a person added by hand needs the full scan).
    ///
    /// The listing of `people/` is not checked: any name created or removed there since the
    /// token is among `changed`, and the folder held the index's keys at the token.
    init?(confirming index: StoreIndex, vouchedBy mark: IndexWatchMark, changed: [String], layout: StoreLayout) {
        guard !index.hasDuplicateIDs, mark.vouches(for: index), let entries = index.entries,
            let baseEntries = Self.entries(index.entryBodies, of: entries.buffer, leaving: index.overrides.keys)
        else { return nil }
        var logged: [PersonSummary] = []
        for case let (_, summary?) in index.overrides { logged.append(summary) }
        guard baseEntries.count + logged.count == index.count else { return nil }
        var pending = Set(Self.personKeys(in: changed))
        if !pending.isEmpty {
            let folder = open(layout.peopleFolder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else { return nil }
            defer { close(folder) }
            func matches(_ key: String, _ signature: FileSignature, takenAt: Int64) -> Bool {
                var key = key
                return key.withUTF8 { Self.fileMatches(signature, takenAt: takenAt, name: UnsafeRawBufferPointer($0), in: folder) }
            }
            for summary in logged where pending.remove(summary.key.rawValue) != nil {
                guard matches(summary.key.rawValue, summary.signature, takenAt: index.checkTime(of: summary.key)) else { return nil }
            }
            if !pending.isEmpty {
                let sorted = pending.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                for body in baseEntries {
                    let summary = SummaryBytes(buffer: entries.buffer, body: body)
                    guard let key = summary.key, Self.contains(sorted, key) else { continue }
                    let name = String(decoding: key, as: UTF8.self)
                    pending.remove(name)
                    guard summary.hasValidLayout, let signature = summary.signature,
                        matches(name, signature, takenAt: index.builtAt)
                    else { return nil }
                }
            }
            // Names the index holds no summary for (never had, or the log removed): no file.
            for name in pending {
                var status = stat()
                guard fstatat(folder, name + ".json", &status, AT_SYMLINK_NOFOLLOW) != 0, errno == ENOENT else { return nil }
            }
        }
        self.index = index
        self.baseEntries = baseEntries
        loggedSummaries = logged
    }

    /// The keys of the person files among paths relative to the store's root, as a scan of
    /// `people/` takes them: visible `.json` files with a valid key; other files never hold
    /// a person.
    static func personKeys(in paths: [String]) -> [String] {
        let prefix = StoreLayout.peopleFolderName + "/"
        return paths.compactMap { path in
            guard path.hasPrefix(prefix) else { return nil }
            let name = path.dropFirst(prefix.count)
            guard name.hasSuffix(".json"), !name.hasPrefix("."), !name.contains("/"),
                let key = RecordKey(rawValue: String(name.dropLast(5)))
            else { return nil }
            return key.rawValue
        }
    }
}
