import FoundationEssentials

/// What a remote looked like after the last sync, kept device-local in
/// `.contacts/sync/<remote>/status.json` (mode 0600, never committed): the collection's sync
/// token and ctag, and for each contact its UID, kind, href, ETag and the fingerprint of the
/// record the sync left in the store.
///
/// ```json
/// {
///   "cards": {
///     "d69c71e5-4a6f-4b9b-97fc-4f9f5770c907": {
///       "etag": "\"3-abc\"",
///       "href": "/dav/me/contacts/d69c71e5-4a6f-4b9b-97fc-4f9f5770c907.vcf",
///       "kind": "person",
///       "local": "9c1e40c63161c682"
///     }
///   },
///   "ctag": "42",
///   "syncToken": "http://radicale.org/ns/sync/9b3f…",
///   "url": "https://dav.example.com/me/contacts/",
///   "version": 1
/// }
/// ```
///
/// The versions themselves, which a merge needs when both sides changed, are kept beside it
/// (see ``SyncBaseFile``). Keys this version does not know are kept on rewrite.
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
    static let fileName = "status.json"

    /// The collection's URL when the status was written: a status of another collection is not
    /// used.
    var url: String?
    var syncToken: String?
    var ctag: String?
    /// The contacts, by UID in ``VCardRecordFields/matchKey(_:)`` form.
    var entries: [String: Entry] = [:]
    var unknownFields: [String: JSONValue] = [:]

    init() {}

    /// Reads the status in `folder`; an empty status when there is none.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` naming the file and the fix when it cannot
    ///   be read; ``ContactsError/Code/unsupportedFormatVersion`` for a newer format.
    static func load(from folder: URL) throws -> SyncStatusFile {
        let url = folder.appending(path: fileName)
        guard let data = try AccessFiles.read(url) else { return SyncStatusFile() }
        return try SyncStatusFile(data: data, path: url.path)
    }

    init(data: Data, path: String) throws {
        let fix = "remove the file to sync this remote as if for the first time (nothing is lost: records and cards are matched by UID)"
        guard case .object(var fields) = try JSONParser.parse(data, path: path) else {
            throw ContactsError(.malformedFile, "the sync status must be a JSON object; \(fix)", path: path)
        }
        if let version = fields.removeValue(forKey: "version") {
            guard case .number(let number) = version, let value = number.int else {
                throw ContactsError(.malformedFile, "\"version\" must be a number; \(fix)", path: path)
            }
            guard value <= Self.formatVersion else {
                throw ContactsError(
                    .unsupportedFormatVersion,
                    "the sync status is of format \(value), newer than this program's \(Self.formatVersion); update contacts",
                    path: path)
            }
        }
        url = fields.removeValue(forKey: "url")?.string
        syncToken = fields.removeValue(forKey: "syncToken")?.string
        ctag = fields.removeValue(forKey: "ctag")?.string
        if let cards = fields.removeValue(forKey: "cards") {
            guard case .object(let items) = cards else {
                throw ContactsError(.malformedFile, "\"cards\" must be an object; \(fix)", path: path)
            }
            for (uid, item) in items {
                guard case .object(let entry) = item, let kind = entry["kind"]?.string.flatMap(Entry.Kind.init),
                    let href = entry["href"]?.string, let etag = entry["etag"]?.string, let local = entry["local"]?.string
                else {
                    throw ContactsError(.malformedFile, "the status of card \"\(uid)\" is incomplete; \(fix)", path: path)
                }
                var read = Entry(kind: kind, href: href, etag: etag, localFingerprint: local)
                read.key = entry["key"]?.string
                if case .array(let numbers)? = entry["file"], numbers.count == 4 {
                    let values = numbers.compactMap { value -> Int64? in
                        if case .number(let number) = value, let int = number.int { return Int64(int) }
                        return nil
                    }
                    if values.count == 4 {
                        read.signature = FileSignature(
                            inode: UInt64(bitPattern: values[0]), size: values[1], modified: values[2], changed: values[3])
                    }
                }
                entries[uid] = read
            }
        }
        unknownFields = fields
    }

    /// The file's bytes: canonical JSON.
    var data: Data {
        var fields = unknownFields
        fields["version"] = .number(JSONNumber(Self.formatVersion))
        fields["url"] = url.map(JSONValue.string)
        fields["syncToken"] = syncToken.map(JSONValue.string)
        fields["ctag"] = ctag.map(JSONValue.string)
        fields["cards"] = .object(
            entries.mapValues { entry in
                var item: [String: JSONValue] = [
                    "kind": .string(entry.kind.rawValue), "href": .string(entry.href), "etag": .string(entry.etag),
                    "local": .string(entry.localFingerprint),
                ]
                item["key"] = entry.key.map(JSONValue.string)
                if let signature = entry.signature {
                    item["file"] = .array(
                        [Int64(bitPattern: signature.inode), signature.size, signature.modified, signature.changed]
                            .map { .number(JSONNumber(Int($0))) })
                }
                return .object(item)
            })
        return CanonicalJSON.encode(.object(fields))
    }

    /// Writes the status into `folder` (created 0700), unless the file already holds these bytes.
    func save(in folder: URL) throws {
        try SyncFolder.make(folder)
        let url = folder.appending(path: Self.fileName)
        let bytes = data
        if try AccessFiles.read(url) == bytes { return }
        try AccessFiles.replace(url, with: bytes)
    }
}

/// The folders of a remote's sync status.
enum SyncFolder {
    /// Creates `folder` and its parents up to the store's private folder, each mode 0700.
    static func make(_ folder: URL) throws {
        var missing: [URL] = []
        var current = folder
        while !FileManager.default.fileExists(atPath: current.path(percentEncoded: false)) {
            missing.append(current)
            let parent = current.deletingLastPathComponent()
            if parent == current { break }
            current = parent
        }
        for url in missing.reversed() { try AccessFiles.makePrivateFolder(url) }
    }
}
