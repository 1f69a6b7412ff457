import Foundation

/// The changes `contacts serve` saved in a store and has not committed yet, kept in the store's
/// device-local `.contacts/serve-uncommitted`, so that a server stopped before its commits were
/// made (killed, or out of patience with a broken Git) leaves word of them, and the next server
/// started on the store commits them (``ServeCommitter``).
///
/// Each change is one line of JSON, appended before its commit is queued: the headline of its
/// commit and the paths it wrote, relative to the store. The file is removed when every change
/// it names is committed. The bytes are not kept: a change committed by the next server holds
/// its files as they are then.
///
/// ```swift
/// let journal = ServeCommitJournal(store: store)
/// try journal.append(.init(headline: "serve: PUT by kim", paths: ["people/katie-bell-x7k2mq.json"]))
/// journal.entries().entries.count   // 1
/// journal.clear()
/// ```
struct ServeCommitJournal: Sendable {
    /// One change saved and not yet committed.
    struct Entry: Codable, Equatable, Sendable {
        /// The first line of its commit, after `contacts: `.
        var headline: String
        /// The files it wrote or removed, relative to the store.
        var paths: [String]
    }

    /// The journal's file.
    let file: URL

    /// The journal of the store at `store`.
    init(store: URL) {
        file = store.appending(path: ".contacts/serve-uncommitted")
    }

    /// Adds a change at the end.
    ///
    /// - Throws: what kept the line from being written (a full disk, a folder not writable).
    func append(_ entry: Entry) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        let path = file.path(percentEncoded: false)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// The changes named, in order, and how many lines could not be read (a line cut short
    /// when the process was killed while writing it).
    func entries() -> (entries: [Entry], unreadable: Int) {
        guard let data = FileManager.default.contents(atPath: file.path(percentEncoded: false)) else { return ([], 0) }
        var entries: [Entry] = []
        var unreadable = 0
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let entry = try? JSONDecoder().decode(Entry.self, from: Data(line)) {
                entries.append(entry)
            } else {
                unreadable += 1
            }
        }
        return (entries, unreadable)
    }

    /// Forgets every change: they are all committed.
    func clear() {
        unlink(file.path(percentEncoded: false))
    }
}
