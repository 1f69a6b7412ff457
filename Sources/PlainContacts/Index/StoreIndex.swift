import FoundationEssentials
import Glibc

/// The derived index in `.contacts/`: a summary of every person file, so that opening a large
/// store, finding a person by ID, searching and listing need not read every record.
///
/// It is a cache and never the truth: deleting it changes nothing but speed. It consists of a
/// base file (`.contacts/index`), rewritten when the store was scanned, and an append-only log
/// (`.contacts/index.log`) that each save adds its written and deleted records to, under the
/// store's lock, so that a save costs the same whatever the size of the store. Both carry
/// checksums; a damaged or foreign file is ignored.
///
/// How it is validated (see ``PersonCatalog`` for the full check):
/// - Every operation that looks at all people (search, list, sorting, re-identification by
///   name) lists `people/` and compares each file's ``FileSignature`` with the summary's;
///   only files whose signature differs, or that changed within two seconds of the index being
///   written (they might have changed again in the same clock tick), are read again.
/// - Finding one person by ID trusts the index only while the signatures of `people/` and
///   `groups/` are those recorded by the last scan or save: any file added, removed or renamed
///   (a save, `git checkout`, `git pull`, an editor that writes a new file) changes them. The
///   person's file itself is always read, so its contents are never stale; if it no longer
///   holds that ID, the full check runs.
package struct StoreIndex: Sendable {
    static let magic: [UInt8] = Array("PCINDEX1".utf8)
    static let logMagic: [UInt8] = Array("PCINDLG1".utf8)
    /// Bumped whenever summaries would be computed differently (normalization, sort keys).
    static let version: UInt32 = 1

    /// When the base was written, in nanoseconds since 1970.
    package private(set) var builtAt: Int64
    /// The folders' signatures after the last scan or save that updated the index.
    package private(set) var peopleFolder: FileSignature?
    package private(set) var groupsFolder: FileSignature?
    /// Whether two people shared a record ID at the last scan.
    package private(set) var hasDuplicateIDs: Bool
    /// The highest record ID in the index.
    package private(set) var highestID: Int32
    /// The number of people.
    package private(set) var count: Int

    private let generation: Int64
    private let base: [UInt8]
    private let entriesStart: Int
    private let entriesEnd: Int
    /// Summaries from the log by key; `nil` marks a deleted person.
    private var overrides: [String: PersonSummary?] = [:]
    private var logSize: Int = 0

    static func baseURL(_ layout: StoreLayout) -> URL { layout.privateFolder.appending(path: "index") }
    static func logURL(_ layout: StoreLayout) -> URL { layout.privateFolder.appending(path: "index.log") }

    /// The index of a store, or `nil` when it is missing, damaged or of another version.
    package static func load(_ layout: StoreLayout) -> StoreIndex? {
        guard let base = try? readBytes(baseURL(layout).path), var index = try? StoreIndex(base: base) else {
            return nil
        }
        if let log = try? readBytes(logURL(layout).path) {
            index.apply(log: log)
        }
        return index
    }

    private init(base: [UInt8]) throws {
        guard base.count >= StoreIndex.magic.count + 8, Array(base.prefix(StoreIndex.magic.count)) == StoreIndex.magic else {
            throw IndexReader.Damaged()
        }
        let body = base.count - 8
        var trailer = IndexReader(base, offset: body)
        guard UInt64(bitPattern: try trailer.int64()) == StoreIndex.checksum(base[0..<body]) else { throw IndexReader.Damaged() }
        var reader = IndexReader(base, offset: StoreIndex.magic.count)
        guard try reader.uint32() == StoreIndex.version else { throw IndexReader.Damaged() }
        generation = try reader.int64()
        builtAt = try reader.int64()
        peopleFolder = try reader.signature()
        groupsFolder = try reader.signature()
        count = Int(try reader.uint32())
        highestID = try reader.int32()
        hasDuplicateIDs = try reader.byte() == 1
        entriesStart = reader.offset
        entriesEnd = body
        self.base = base
    }

    /// Applies the log records that belong to this base, stopping at a torn or damaged one.
    private mutating func apply(log: [UInt8]) {
        var reader = IndexReader(log)
        guard (try? reader.skip(StoreIndex.logMagic.count)) != nil, Array(log.prefix(StoreIndex.logMagic.count)) == StoreIndex.logMagic,
            let logGeneration = try? reader.int64(), logGeneration == generation
        else { return }
        logSize = log.count
        while !reader.isAtEnd {
            guard let length = try? reader.uint32(), reader.offset + Int(length) + 8 <= log.count else { return }
            let start = reader.offset
            var check = IndexReader(log, offset: start + Int(length))
            guard let sum = try? check.int64(), UInt64(bitPattern: sum) == StoreIndex.checksum(log[start..<(start + Int(length))]) else { return }
            var record = IndexReader(Array(log[start..<(start + Int(length))]))
            if let type = log[start..<(start + Int(length))].first {
                if type == 4 { count += 1 } else if type == 2 { count -= 1 }
            }
            do {
                switch try record.byte() {
                case 1, 4:
                    let summary = try PersonSummary.decode(&record, sharing: record.bytes)
                    overrides[summary.key.rawValue] = .some(summary)
                    highestID = Swift.max(highestID, summary.id.rawValue)
                case 2:
                    let key = try record.requiredString()
                    overrides[key] = .some(nil)
                case 3:
                    peopleFolder = try record.signature()
                    groupsFolder = try record.signature()
                default:
                    return
                }
            } catch {
                return
            }
            reader.offset = start + Int(length) + 8
        }
    }

    /// The key of the person with a record ID, without decoding other entries.
    package func key(forID id: RecordID) -> RecordKey? {
        for case let (key, summary?) in overrides where summary.id == id { return RecordKey(rawValue: key) }
        var reader = IndexReader(base, offset: entriesStart)
        while reader.offset < entriesEnd {
            guard let entry = try? PersonSummary.skimID(&reader) else { return nil }
            guard entry.id == id else { continue }
            var keyReader = IndexReader(base, offset: entry.start + 4)
            guard let key = try? keyReader.requiredString() else { return nil }
            if overrides[key] != nil { continue }
            return RecordKey(rawValue: key)
        }
        return nil
    }

    /// Every summary, base and log together, by key.
    package func allSummaries() -> [RecordKey: PersonSummary] {
        var result: [RecordKey: PersonSummary] = [:]
        result.reserveCapacity(count)
        var reader = IndexReader(base, offset: entriesStart)
        while reader.offset < entriesEnd {
            guard let summary = try? PersonSummary.decode(&reader, sharing: base) else { return [:] }
            if overrides[summary.key.rawValue] == nil { result[summary.key] = summary }
        }
        for case let (_, summary?) in overrides { result[summary.key] = summary }
        return result
    }

    /// Whether the log has grown enough that the next save should rewrite the base.
    package var needsCompaction: Bool {
        logSize > 4 << 20 || logSize > Swift.max(base.count / 4, 256 << 10)
    }

    /// Writes a new base from summaries and starts an empty log.
    package static func write(
        _ summaries: [RecordKey: PersonSummary], peopleFolder: FileSignature?, groupsFolder: FileSignature?,
        builtAt: Int64, layout: StoreLayout
    ) throws {
        var writer = IndexWriter()
        writer.append(magic)
        writer.uint32(version)
        let generation = Int64.random(in: 1...Int64.max)
        writer.int64(generation)
        writer.int64(builtAt)
        writer.signature(peopleFolder ?? FileSignature(inode: 0, size: 0, modified: 0, changed: 0))
        writer.signature(groupsFolder ?? FileSignature(inode: 0, size: 0, modified: 0, changed: 0))
        writer.uint32(UInt32(summaries.count))
        var ids = Set<Int32>()
        var duplicates = false
        var highest: Int32 = 0
        for summary in summaries.values {
            if !ids.insert(summary.id.rawValue).inserted { duplicates = true }
            highest = Swift.max(highest, summary.id.rawValue)
        }
        writer.int32(highest)
        writer.byte(duplicates ? 1 : 0)
        for key in summaries.keys.sorted() {
            summaries[key]?.encode(into: &writer)
        }
        writer.int64(Int64(bitPattern: StoreIndex.checksum(writer.bytes[...])))
        try replace(baseURL(layout), with: writer.bytes)
        var log = IndexWriter()
        log.append(logMagic)
        log.int64(generation)
        try replace(logURL(layout), with: log.bytes)
    }

    /// Appends a save's changes to the log: rewritten people, added people (new files) and
    /// removed people. Call under the store's exclusive lock.
    package func append(
        updated: [PersonSummary], added: [PersonSummary], removed: [RecordKey], peopleFolder: FileSignature?,
        groupsFolder: FileSignature?, layout: StoreLayout
    ) throws {
        var records: [[UInt8]] = []
        for (type, summaries) in [(UInt8(1), updated), (UInt8(4), added)] {
            for summary in summaries {
                var record = IndexWriter()
                record.byte(type)
                summary.encode(into: &record)
                records.append(record.bytes)
            }
        }
        for key in removed {
            var record = IndexWriter()
            record.byte(2)
            record.string(key.rawValue)
            records.append(record.bytes)
        }
        var folders = IndexWriter()
        folders.byte(3)
        folders.signature(peopleFolder ?? FileSignature(inode: 0, size: 0, modified: 0, changed: 0))
        folders.signature(groupsFolder ?? FileSignature(inode: 0, size: 0, modified: 0, changed: 0))
        records.append(folders.bytes)
        var out = IndexWriter()
        for record in records {
            out.uint32(UInt32(record.count))
            out.append(record)
            out.int64(Int64(bitPattern: StoreIndex.checksum(record[...])))
        }
        let path = StoreIndex.logURL(layout).path
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw ContactsError(.io, "cannot append to the index log", path: path) }
        defer { close(descriptor) }
        try out.bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ContactsError(.io, "cannot append to the index log", path: path)
                }
                offset += written
            }
        }
    }

    /// Deletes the index files.
    package static func remove(_ layout: StoreLayout) {
        unlink(baseURL(layout).path)
        unlink(logURL(layout).path)
    }

    /// FNV-1a over bytes.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw IndexReader.Damaged() }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw IndexReader.Damaged() }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            offset += count
        }
        return Array(bytes.prefix(offset))
    }

    /// Replaces a cache file by writing a temporary file beside it and renaming it. No fsync:
    /// a cache lost in a crash is rebuilt.
    static func replace(_ url: URL, with bytes: [UInt8]) throws {
        let temporary = url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).tmp-\(UInt64.random(in: 0...UInt64.max))")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ContactsError(.io, "cannot write the index", path: temporary.path) }
        var failed = false
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                offset += written
            }
        }
        fchmod(descriptor, 0o600)
        close(descriptor)
        if failed || rename(temporary.path, url.path) != 0 {
            unlink(temporary.path)
            throw ContactsError(.io, "cannot write the index", path: url.path)
        }
    }
}
