/// The files this process wrote itself, with the fingerprints they were written with, so that
/// the watcher does not report them as changes from outside.
///
/// An entry is used up when a re-read of its file finds exactly those bytes (or, for
/// fingerprint 0, no file); entries that never match expire after ``lifetime``, so that a save
/// that failed halfway cannot hide a later change from another program.
///
/// ```swift
/// var list = WatcherIgnoreList()
/// list.add(path: "people/ann-2x9kqp.json", fingerprint: fnv1a64(bytes), at: .now)
/// list.consume(path: "people/ann-2x9kqp.json", fingerprint: fnv1a64(bytes), at: .now)  // true
/// ```
struct WatcherIgnoreList: Sendable {
    /// How long an expected write stays expected.
    static let lifetime: Duration = .seconds(120)
    /// How many expected writes one path keeps; older ones are dropped first.
    static let limitPerPath = 16
    /// How many paths may hold expectations before expired ones are swept out.
    static let pruneThreshold = 1024

    private struct Expectation: Sendable {
        var fingerprint: UInt64
        var deadline: ContinuousClock.Instant
    }

    private var expectations: [String: [Expectation]] = [:]

    /// Whether no write is expected.
    var isEmpty: Bool { expectations.isEmpty }

    /// Expects the file at `path` to get the bytes of `fingerprint` (0: to be deleted).
    mutating func add(path: String, fingerprint: UInt64, at now: ContinuousClock.Instant) {
        var list = expectations[path, default: []].filter { $0.deadline > now }
        list.append(Expectation(fingerprint: fingerprint, deadline: now.advanced(by: WatcherIgnoreList.lifetime)))
        if list.count > WatcherIgnoreList.limitPerPath {
            list.removeFirst(list.count - WatcherIgnoreList.limitPerPath)
        }
        expectations[path] = list
        if expectations.count > WatcherIgnoreList.pruneThreshold {
            expectations = expectations.compactMapValues { list in
                let live = list.filter { $0.deadline > now }
                return live.isEmpty ? nil : live
            }
        }
    }

    /// Whether the file at `path` now holding `fingerprint` is this process's own write. A match
    /// uses up that expectation and every earlier one for the path, since the file has moved
    /// past them.
    mutating func consume(path: String, fingerprint: UInt64, at now: ContinuousClock.Instant) -> Bool {
        guard var list = expectations[path] else { return false }
        list.removeAll { $0.deadline <= now }
        defer { expectations[path] = list.isEmpty ? nil : list }
        guard let match = list.lastIndex(where: { $0.fingerprint == fingerprint }) else { return false }
        list.removeFirst(match + 1)
        return true
    }
}
