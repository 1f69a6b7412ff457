import FoundationEssentials
import PlainContacts
import PlainContactsSystem

/// What a remote looked like after the last sync, kept device-local in
/// `.contacts/sync/<remote>/status` (mode 0600, never committed): the collection's sync token
/// and ctag, and for each contact its UID, kind, href, ETag, the fingerprint of the record the
/// sync left in the store, and for a person its record key and file signature.
///
/// A text file of tab-separated lines, because a sync of ten thousand cards reads and writes it
/// every time; a backslash escapes a tab, a line break or a backslash inside a field:
///
/// ```
/// plaincontacts-sync-status	1
/// url	https://dav.example.com/me/contacts/
/// syncToken	http://radicale.org/ns/sync/9b3f…
/// card	d69c71e5-…	person	/me/contacts/d69c71e5-….vcf	"3-abc"	9c1e40c63161c682	katie-bell-x7k2mq	1835011	612	1764043200123456789	1764043200123456789
/// ```
///
/// The versions themselves, which a merge needs when both sides changed, are kept beside it
/// (see ``SyncBaseFile``). Lines this version does not know are kept on rewrite.
struct SyncStatusFile: Hashable, Sendable {
    /// One contact's status.
    struct Entry: Hashable, Sendable {
        enum Kind: String, Hashable, Sendable { case person, group }

        var kind: Kind
        var href: String
        var etag: String
        /// The fingerprint of the store's record (for a group, of its card form) after the sync.
        var localFingerprint: String
        /// A person's record key and its file's signature after the sync: a file with the same
        /// signature is unchanged, and is not read at all.
        var key: String? = nil
        var signature: FileSignature? = nil

        var status: SyncStatus { SyncStatus(localFingerprint: localFingerprint, remoteETag: etag) }
    }

    /// The format written; a newer one is refused.
    static let formatVersion = 1
    /// The file's name inside the remote's status folder.
    static let fileName = "status"
    private static let magic = "plaincontacts-sync-status"

    /// The collection's URL when the status was written: a status of another collection is not
    /// used.
    var url: String?
    var syncToken: String?
    var ctag: String?
    /// The contacts, by UID in ``VCardRecordFields/matchKey(_:)`` form.
    var entries: [String: Entry] = [:]
    /// Lines this version does not know, kept as they are.
    var unknownLines: [String] = []

    init() {}

    /// Reads the status in `folder`; an empty status when there is none.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` naming the file, the line and the fix when
    ///   it cannot be read; ``ContactsError/Code/unsupportedFormatVersion`` for a newer format.
    static func load(from folder: URL) throws -> SyncStatusFile {
        guard let stored = try Stored.read(from: folder) else { return SyncStatusFile() }
        return try SyncStatusFile(stored)
    }

    /// Reads the status from its file's bytes.
    ///
    /// - Throws: as ``load(from:)``.
    init(_ stored: Stored) throws {
        try self.init(data: stored.data, path: stored.path)
    }

    /// A status file's bytes, read but not parsed: its head (``head``) is enough to ask the
    /// server for its changes while the rest is read.
    struct Stored {
        var data: Data
        var path: String

        /// The status file in `folder`; `nil` when there is none.
        ///
        /// - Throws: the errors of reading the file.
        static func read(from folder: URL) throws -> Stored? {
            let url = folder.appending(path: SyncStatusFile.fileName)
            return try DeviceFiles.read(url).map { Stored(data: $0, path: url.path) }
        }

        /// The collection's URL and sync token, from the lines before the first card (where
        /// ``SyncStatusFile/data`` writes them); `nil` when the bytes are not a status of a
        /// format this version reads.
        var head: (url: String?, syncToken: String?)? {
            var lines = data.split(separator: 0x0A, maxSplits: 4, omittingEmptySubsequences: false)[...]
            guard let first = lines.popFirst(), SyncStatusFile.version(ofHead: first).map({ $0 <= formatVersion }) == true else {
                return nil
            }
            var head: (url: String?, syncToken: String?) = (nil, nil)
            for line in lines {
                let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
                guard fields.count == 2 else { break }
                switch String(decoding: fields[0], as: UTF8.self) {
                case "url": head.url = TabSeparatedFields.unescape(ArraySlice(fields[1]))
                case "syncToken": head.syncToken = TabSeparatedFields.unescape(ArraySlice(fields[1]))
                case "ctag": continue
                default: return head
                }
            }
            return head
        }
    }

    /// The format version a status file's first line names; `nil` when it is not a status.
    private static func version(ofHead line: some Collection<UInt8>) -> Int? {
        let head = String(decoding: line, as: UTF8.self)
        guard head.hasPrefix(magic + "\t") else { return nil }
        return Int(head.dropFirst(magic.count + 1))
    }

    init(data: Data, path: String) throws {
        let fix = "remove the file to sync this remote as if for the first time (nothing is lost: records and cards are matched by UID)"
        // Read as bytes: ten thousand lines split as characters would cost a tenth of a second.
        let bytes = [UInt8](data)
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let version = lines.first.flatMap(Self.version(ofHead:)) else {
            throw ContactsError(.malformedFile, "the file is not a sync status; \(fix)", path: path, line: 1)
        }
        guard version <= Self.formatVersion else {
            throw ContactsError(
                .unsupportedFormatVersion,
                "the sync status is of format \(version), newer than this program's \(Self.formatVersion); update contacts",
                path: path)
        }
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map(TabSeparatedFields.unescape)
            switch fields[0] {
            case "url" where fields.count == 2: url = fields[1]
            case "syncToken" where fields.count == 2: syncToken = fields[1]
            case "ctag" where fields.count == 2: ctag = fields[1]
            case "card":
                guard fields.count >= 6, let kind = Entry.Kind(rawValue: fields[2]) else {
                    throw ContactsError(.malformedFile, "a card's status is incomplete; \(fix)", path: path, line: index + 1)
                }
                var entry = Entry(kind: kind, href: fields[3], etag: fields[4], localFingerprint: fields[5])
                if fields.count >= 7, !fields[6].isEmpty { entry.key = fields[6] }
                if fields.count >= 11, let inode = UInt64(fields[7]), let size = Int64(fields[8]),
                    let modified = Int64(fields[9]), let changed = Int64(fields[10])
                {
                    entry.signature = FileSignature(inode: inode, size: size, modified: modified, changed: changed)
                }
                entries[fields[1]] = entry
            default:
                unknownLines.append(String(decoding: line, as: UTF8.self))
            }
        }
    }

    /// The file's bytes: entries sorted by UID, so that equal statuses are equal files.
    var data: Data {
        var text: [UInt8] = Array("\(Self.magic)\t\(Self.formatVersion)\n".utf8)
        // About a hundred and fifty bytes a card: one allocation for ten thousand lines.
        text.reserveCapacity(text.count + 160 * entries.count + 512)
        func add(_ name: String, _ value: String) {
            text += name.utf8
            TabSeparatedFields.append(value, to: &text)
            text.append(0x0A)
        }
        if let url { add("url", url) }
        if let syncToken { add("syncToken", syncToken) }
        if let ctag { add("ctag", ctag) }
        for uid in entries.keys.sorted() {
            guard let entry = entries[uid] else { continue }
            text += "card".utf8
            TabSeparatedFields.append(uid, to: &text)
            TabSeparatedFields.append(entry.kind.rawValue, to: &text)
            TabSeparatedFields.append(entry.href, to: &text)
            TabSeparatedFields.append(entry.etag, to: &text)
            TabSeparatedFields.append(entry.localFingerprint, to: &text)
            TabSeparatedFields.append(entry.key ?? "", to: &text)
            if let signature = entry.signature {
                TabSeparatedFields.append(signature.inode, to: &text)
                TabSeparatedFields.append(signature.size, to: &text)
                TabSeparatedFields.append(signature.modified, to: &text)
                TabSeparatedFields.append(signature.changed, to: &text)
            }
            text.append(0x0A)
        }
        for line in unknownLines {
            text += line.utf8
            text.append(0x0A)
        }
        return Data(text)
    }

    /// Writes the status into `folder` (created 0700), unless the file already holds these bytes.
    func save(in folder: URL) throws {
        try DeviceFiles.makePrivateFolders(folder)
        let url = folder.appending(path: Self.fileName)
        try DurableFile.writeIfChanged(data, to: url)
    }
}
