#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// What the server knows of the address book between runs, kept device-local in
/// `.contacts/carddav/state` (mode 0600, never committed): the collection's instance and change
/// number, every card's resource name, ETag and the signatures of its files, and the names of
/// cards removed since the oldest sync token still honoured.
///
/// With it, a restarted server answers the sync tokens it gave before, keeps every card at the
/// href a client chose for it, and reads only the records that changed while it was stopped.
/// Without it (removed, unreadable), the server starts a new instance: every card gets its
/// default name and clients sync afresh; nothing of the store is lost.
///
/// Tab-separated lines, escaped as ``SyncStatusFile`` escapes them. Changes are appended; a
/// later line for a name replaces an earlier one, and the file is rewritten whole when the
/// appended lines outnumber the cards. A torn last line (a crash mid-append) is ignored.
///
/// ```
/// plaincontacts-carddav	1
/// instance	9f3c2a7d41b0e8c5
/// floor	0
/// card	d69c….vcf	person	katie-bell-x7k2mq	d69c…	3f2a…	412	7	1764043200123456789	1835011	612	…
/// removed	0b1e….vcf	8
/// ```
struct CardDAVStateFile: Sendable {
    /// The format written; a newer one is not read (the server starts afresh).
    static let formatVersion = 1
    /// The first field of the file's first line.
    private static let magic = "plaincontacts-carddav"

    /// The history the sync tokens belong to.
    var instance: String
    /// Tokens below this change number are no longer answered (removals before it were
    /// forgotten).
    var floor: UInt64 = 0
    /// The cards, by resource name.
    var entries: [String: CardDAVEntry] = [:]
    /// Cards removed, by resource name, with the change number of the removal.
    var removed: [String: UInt64] = [:]
    /// The number of lines the file holds.
    var lineCount = 0

    /// An empty state of a new instance.
    init() {
        instance = PosixFileSystem.randomHex(byteCount: 8)
    }

    /// The folder of the server's device-local files in a store: `.contacts/carddav`.
    static func folder(in layout: StoreLayout) -> URL {
        layout.privateFolder.appending(path: "carddav", directoryHint: .isDirectory)
    }

    /// The file of a store.
    static func url(in layout: StoreLayout) -> URL {
        folder(in: layout).appending(path: "state")
    }

    /// Reads the state; a new, empty state when the file is missing, unreadable or of a newer
    /// format.
    static func load(from url: URL) -> CardDAVStateFile {
        guard let data = try? DeviceFiles.read(url), let state = CardDAVStateFile(data: data) else {
            return CardDAVStateFile()
        }
        return state
    }

    /// Reads the file's bytes; `nil` when they are not a state of this format.
    init?(data: Data) {
        let bytes = [UInt8](data)
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        // The last element follows the last line break: empty, or a torn line.
        lines.removeLast()
        guard let head = lines.first, String(decoding: head, as: UTF8.self) == "\(Self.magic)\t\(Self.formatVersion)"
        else { return nil }
        instance = ""
        lineCount = lines.count
        for line in lines.dropFirst() {
            apply(line.split(separator: 0x09, omittingEmptySubsequences: false).map(TabSeparatedFields.unescape))
        }
        guard !instance.isEmpty else { return nil }
    }

    /// The change number of the latest change recorded.
    var sequence: UInt64 {
        var latest = floor
        for entry in entries.values { latest = max(latest, entry.sequence) }
        for removal in removed.values { latest = max(latest, removal) }
        return latest
    }

    /// Applies one line's fields; lines that cannot be read are skipped.
    private mutating func apply(_ fields: [String]) {
        switch fields.first {
        case "instance" where fields.count >= 2:
            instance = fields[1]
        case "floor" where fields.count >= 2:
            floor = UInt64(fields[1]) ?? floor
        case "card":
            guard let entry = Self.entry(fields) else { return }
            entries[entry.name] = entry
            removed[entry.name] = nil
        case "removed" where fields.count >= 3:
            guard let sequence = UInt64(fields[2]) else { return }
            entries[fields[1]] = nil
            removed[fields[1]] = sequence
        case "forgotten" where fields.count >= 2:
            removed[fields[1]] = nil
        default:
            return
        }
    }

    /// The card a `card` line's fields describe; `nil` when they cannot be read.
    private static func entry(_ fields: [String]) -> CardDAVEntry? {
        guard fields.count >= 9, let kind = CardDAVEntry.Record.Kind(rawValue: fields[2]),
            let key = RecordKey(rawValue: fields[3]), let length = Int(fields[6]), let sequence = UInt64(fields[7]),
            let modified = Int64(fields[8])
        else { return nil }
        var signatures: [FileSignature?] = []
        var index = 9
        while index < fields.count {
            if fields[index] == "-" {
                signatures.append(nil)
                index += 1
                continue
            }
            guard index + 3 < fields.count, let inode = UInt64(fields[index]), let size = Int64(fields[index + 1]),
                let changedAt = Int64(fields[index + 2]), let statusAt = Int64(fields[index + 3])
            else { return nil }
            signatures.append(FileSignature(inode: inode, size: size, modified: changedAt, changed: statusAt))
            index += 4
        }
        return CardDAVEntry(
            record: .init(kind: kind, key: key), name: fields[1], uid: fields[4], etag: fields[5], length: length,
            modified: modified, signatures: signatures, sequence: sequence)
    }

    // MARK: Writing

    /// The line of a card.
    static func line(for entry: CardDAVEntry) -> [UInt8] {
        var bytes: [UInt8] = []
        appendLine(for: entry, to: &bytes)
        return bytes
    }

    /// Appends the line of a card, field by field (a hundred thousand of them make the file).
    static func appendLine(for entry: CardDAVEntry, to bytes: inout [UInt8]) {
        bytes += "card".utf8
        for text in [entry.name, entry.record.kind.rawValue, entry.record.key.rawValue, entry.uid, entry.etag] {
            TabSeparatedFields.append(text, to: &bytes)
        }
        TabSeparatedFields.append(entry.length, to: &bytes)
        TabSeparatedFields.append(entry.sequence, to: &bytes)
        TabSeparatedFields.append(entry.modified, to: &bytes)
        for signature in entry.signatures {
            if let signature {
                TabSeparatedFields.append(signature.inode, to: &bytes)
                TabSeparatedFields.append(signature.size, to: &bytes)
                TabSeparatedFields.append(signature.modified, to: &bytes)
                TabSeparatedFields.append(signature.changed, to: &bytes)
            } else {
                bytes += [0x09, UInt8(ascii: "-")]
            }
        }
        bytes.append(0x0A)
    }

    /// The line of a removal.
    static func line(removed name: String, sequence: UInt64) -> [UInt8] {
        line(["removed", name, String(sequence)])
    }

    /// The line that forgets a removal (the name was given to a card again).
    static func line(forgotten name: String) -> [UInt8] {
        line(["forgotten", name])
    }

    /// One line of escaped, tab-separated fields.
    private static func line(_ fields: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(0x09) }
            bytes.append(contentsOf: TabSeparatedFields.escape(field).utf8)
        }
        bytes.append(0x0A)
        return bytes
    }

    /// The whole file: the cards sorted by name (their lines made on all cores), then the
    /// removals. In name order, a restarted server reads the names into memory in the order it
    /// sorts them for a listing, which keeps that sort a fifth faster at 100,000 cards.
    var data: Data {
        var bytes = Array("\(Self.magic)\t\(Self.formatVersion)\n".utf8)
        bytes += Self.line(["instance", instance])
        bytes += Self.line(["floor", String(floor)])
        let cards = entries.keys.sorted().compactMap { entries[$0] }
        let chunk = 4096
        let lines = Parallel.map((cards.count + chunk - 1) / chunk, minimumChunk: 1) { part in
            var lines: [UInt8] = []
            lines.reserveCapacity(chunk * 160)
            for entry in cards[(part * chunk)..<min(cards.count, (part + 1) * chunk)] {
                Self.appendLine(for: entry, to: &lines)
            }
            return lines
        }
        bytes.reserveCapacity(bytes.count + lines.reduce(0) { $0 + $1.count } + removed.count * 64)
        for part in lines { bytes += part }
        for name in removed.keys.sorted() {
            if let sequence = removed[name] { bytes += Self.line(removed: name, sequence: sequence) }
        }
        return Data(bytes)
    }

    /// The number of lines ``data`` holds.
    var compactLineCount: Int { 3 + entries.count + removed.count }

    /// Records changes: appends their `added` lines (made by `lines` only then), or rewrites
    /// the file when it is missing or the appended lines outnumber the cards (creating its
    /// folder, mode 0700).
    ///
    /// - Throws: ``ContactsError/Code/io`` when the file cannot be written.
    mutating func save(lineCount added: Int, to url: URL, lines: () -> [UInt8]) throws {
        let exists = PosixFileSystem.exists(url.path(percentEncoded: false))
        if exists, lineCount > 0, lineCount + added <= 2 * compactLineCount + 1000 {
            try DeviceFiles.append(Data(lines()), to: url)
            lineCount += added
            return
        }
        try DeviceFiles.makePrivateFolders(url.deletingLastPathComponent())
        try DurableFile.write(data, to: url)
        lineCount = compactLineCount
    }
}
