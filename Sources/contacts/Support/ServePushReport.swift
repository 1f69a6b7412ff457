import Foundation

/// Why the last push of `contacts serve --push` (or of a command in a store with
/// `"autoPush": true`) failed, kept in the store's device-local `.contacts/serve-unpushed`
/// until a push succeeds, so that `contacts doctor` can say what is
/// not pushed and why: `3 commits not pushed to origin since 10:42: git push to origin: …`.
///
/// The commits themselves are in the repository; only the reason is kept here (one line of
/// JSON, without personal data: Git's first error line).
///
/// ```swift
/// let report = ServePushReport(store: store)
/// report.record("git push to origin: could not read from remote repository", remote: "origin")
/// report.reason   // "git push to origin: could not read from remote repository"
/// report.clear()
/// ```
struct ServePushReport: Sendable {
    /// What the file holds.
    private struct Entry: Codable {
        var reason: String
        var remote: String?
    }

    /// The report's file.
    let file: URL

    /// The report of the store at `store`.
    init(store: URL) {
        file = store.appending(path: ".contacts/serve-unpushed")
    }

    /// The reason of the last failed push, or `nil` when the last push succeeded.
    var reason: String? {
        guard let data = FileManager.default.contents(atPath: file.path(percentEncoded: false)) else { return nil }
        return (try? JSONDecoder().decode(Entry.self, from: data))?.reason
    }

    /// Keeps `reason` as the last failure; a report that cannot be written is left out (the
    /// log has the failure too).
    func record(_ reason: String, remote: String?) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(Entry(reason: reason, remote: remote)) else { return }
        data.append(UInt8(ascii: "\n"))
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }

    /// Forgets the failure: a push succeeded.
    func clear() {
        unlink(file.path(percentEncoded: false))
    }

    /// `3 commits not pushed to origin since 10:42` (the time of the oldest, local, with the
    /// date when it is not today).
    static func describe(count: Int, remote: String, since: Date?, now: Date = .now) -> String {
        let commits = count == 1 ? "1 commit" : "\(count) commits"
        guard let since else { return "\(commits) not pushed to \(remote)" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDate(since, inSameDayAs: now) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return "\(commits) not pushed to \(remote) since \(formatter.string(from: since))"
    }
}
