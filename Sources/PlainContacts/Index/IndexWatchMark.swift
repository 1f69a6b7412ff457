import FoundationEssentials
import Glibc
import PlainContactsSystem

/// The token of `contacts watch` (``IndexWatcher``) at which the index last vouched for every
/// person file, in `.contacts/index.watch`: a full check confirmed the index after the watcher
/// gave that token, so only the files the watcher names as changed since need a look.
///
/// It names the index it vouches for by the base's generation and how much of the log was
/// applied; an index rewritten since (another generation), or one whose log lost records
/// (less of it applied), is not the one vouched for. Records the log gained since were written
/// with their files, which the watcher then names. The file is a cache: missing, damaged or of
/// another store, it costs one full check. It is written only when the token moves on.
///
/// ```
/// PCWATCH1 instance sequence generation applied-log-length checksum   (8 bytes each)
/// ```
struct IndexWatchMark: Equatable, Sendable {
    static let magic: [UInt8] = Array("PCWATCH1".utf8)
    static let size = 6 * 8

    /// The watcher's token when the index was last confirmed.
    var token: ChangeToken
    /// The generation of the index's base then (``StoreIndex/generation``).
    var generation: Int64
    /// How much of the index's log was applied then (``StoreIndex/appliedLogLength``).
    var appliedLogLength: Int

    /// The mark for an index confirmed after the watcher gave `token`.
    init(token: ChangeToken, index: StoreIndex) {
        self.token = token
        generation = index.generation
        appliedLogLength = index.appliedLogLength
    }

    static func url(_ layout: StoreLayout) -> URL { layout.privateFolder.appending(path: "index.watch") }

    /// Whether it vouches for `index`: the same base, with at least the log it had.
    func vouches(for index: StoreIndex) -> Bool {
        index.generation == generation && index.appliedLogLength >= appliedLogLength
    }

    /// The store's mark, or `nil` when there is none or it is damaged.
    static func read(_ layout: StoreLayout) -> IndexWatchMark? {
        guard let bytes = try? StoreIndex.readBytes(url(layout).path), bytes.count == size,
            Array(bytes.prefix(magic.count)) == magic
        else { return nil }
        var reader = IndexReader(bytes, offset: magic.count)
        guard let instance = try? reader.int64(), let sequence = try? reader.int64(), let generation = try? reader.int64(),
            let applied = try? reader.int64(), let sum = try? reader.int64(),
            UInt64(bitPattern: sum) == StoreIndex.checksum(bytes[0..<(size - 8)]), instance != 0, applied >= 0
        else { return nil }
        return IndexWatchMark(
            token: ChangeToken(instance: UInt64(bitPattern: instance), sequence: UInt64(bitPattern: sequence)),
            generation: generation, appliedLogLength: Int(applied))
    }

    private init(token: ChangeToken, generation: Int64, appliedLogLength: Int) {
        self.token = token
        self.generation = generation
        self.appliedLogLength = appliedLogLength
    }

    /// Writes the mark; a failure is ignored (the next command checks every file again).
    func write(_ layout: StoreLayout) {
        var writer = IndexWriter()
        writer.append(Self.magic)
        writer.int64(Int64(bitPattern: token.instance))
        writer.int64(Int64(bitPattern: token.sequence))
        writer.int64(generation)
        writer.int64(Int64(appliedLogLength))
        writer.int64(Int64(bitPattern: StoreIndex.checksum(writer.bytes[...])))
        try? StoreIndex.replace(Self.url(layout), with: writer.bytes)
    }

    /// Asks the store's watcher what changed since `token`; `nil` when no watcher answers
    /// within ``askTimeoutMilliseconds``.
    static func ask(_ layout: StoreLayout, since token: ChangeToken?) -> ChangeJournal.Answer? {
        guard let path = layout.watchSocketPath else { return nil }
        return ChangeQuery.ask(path, since: token, timeoutMilliseconds: askTimeoutMilliseconds)
    }

    /// How long a reading command waits for a watcher that accepted its question: a stuck one
    /// costs this once, then the full check runs. A dead watcher's socket refuses at once.
    static let askTimeoutMilliseconds = 50
}
