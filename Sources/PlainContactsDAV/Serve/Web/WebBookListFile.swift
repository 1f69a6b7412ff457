#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// A book's whole people list (``WebBookList``) kept between runs of the server, device-local
/// in `.contacts/carddav/web-list` beside the collection's state (mode 0600, never
/// committed): a server started again reads it and catches it up with what changed since its
/// token, instead of sorting every person again.
///
/// The file is a cache: one that is missing, unreadable, of another version or of another
/// history of the collection is ignored, and the list is made again from the book and
/// written anew. It starts with a line naming the format, its version and the length of a
/// JSON header (the token, the signature of `store.json`, the groups and their members),
/// then the header, then the people (``KeptPeopleList/encoded``):
///
/// ```
/// plaincontacts-web-list	1	412
/// {"groups": […], "instance": "9f3c2a7d41b0e8c5", "sequence": "812", "settings": {…}}
/// …the people's bytes…
/// ```
///
/// ```swift
/// let url = WebBookListFile.url(in: layout)
/// try WebBookListFile.write(list, to: url)
/// let kept = WebBookListFile.read(from: url)   // the same list, or nil
/// ```
enum WebBookListFile {
    /// The format written; another is not read (the list is made again).
    static let formatVersion = 1
    /// The first field of the file's first line.
    private static let magic = "plaincontacts-web-list"

    /// The file of a store.
    static func url(in layout: StoreLayout) -> URL {
        CardDAVStateFile.folder(in: layout).appending(path: "web-list")
    }

    /// The list the file at `url` holds; `nil` when it is missing, unreadable, damaged or of
    /// another version.
    static func read(from url: URL) -> WebBookList? {
        guard let data = try? DeviceFiles.read(url) else { return nil }
        return decode([UInt8](data))
    }

    /// Writes `list` to the file at `url`, replacing it whole (creating its folder, mode
    /// 0700); gives `false`, writing nothing, when the list cannot be kept so (see
    /// ``KeptPeopleList/encoded``).
    ///
    /// - Throws: ``ContactsError/Code/io`` and the other errors of a durable write.
    @discardableResult
    static func write(_ list: WebBookList, to url: URL) throws -> Bool {
        guard let data = encode(list) else { return false }
        try DeviceFiles.makePrivateFolders(url.deletingLastPathComponent())
        try DurableFile.write(data, to: url)
        return true
    }

    /// The file's bytes for `list`; `nil` when its people cannot be kept.
    static func encode(_ list: WebBookList) -> Data? {
        guard let people = list.people.encoded else { return nil }
        var settings = JSONValue.null
        if let signature = list.settings {
            settings = .object([
                "inode": .string(String(signature.inode)), "size": .string(String(signature.size)),
                "modified": .string(String(signature.modified)), "changed": .string(String(signature.changed)),
            ])
        }
        let groups = list.groups.map { group in
            let members = (list.members[group.id] ?? []).map(\.rawValue).sorted()
            return JSONValue.object([
                "id": .number(JSONNumber(Int(group.id.rawValue))), "name": .string(group.name),
                "members": .array(members.map(JSONValue.string)),
            ])
        }
        let header = CanonicalJSON.encode(
            .object([
                "instance": .string(list.token.instance), "sequence": .string(String(list.token.sequence)),
                "settings": settings, "groups": .array(groups),
            ]))
        var bytes = Array("\(magic)\t\(formatVersion)\t\(header.count)\n".utf8)
        bytes.reserveCapacity(bytes.count + header.count + people.count)
        bytes += header
        bytes += people
        return Data(bytes)
    }

    /// The list of a file's bytes; `nil` when they are not a list of this format.
    static func decode(_ bytes: [UInt8]) -> WebBookList? {
        guard let end = bytes.prefix(128).firstIndex(of: 0x0A) else { return nil }
        let head = bytes[..<end].split(separator: 0x09).map { String(decoding: $0, as: UTF8.self) }
        guard head.count == 3, head[0] == magic, head[1] == String(formatVersion), let length = Int(head[2]),
            length >= 0, end + 1 + length <= bytes.count,
            let header = try? JSONParser.parse(Data(bytes[(end + 1)..<(end + 1 + length)])),
            let instance = header["instance"]?.string, let sequence = header["sequence"]?.string.flatMap(UInt64.init),
            let groupValues = header["groups"]?.array,
            let people = KeptPeopleList(encoded: bytes, at: end + 1 + length)
        else { return nil }
        var settings: FileSignature?
        if let value = header["settings"], !value.isNull {
            guard let inode = value["inode"]?.string.flatMap(UInt64.init), let size = value["size"]?.string.flatMap(Int64.init),
                let modified = value["modified"]?.string.flatMap(Int64.init),
                let changed = value["changed"]?.string.flatMap(Int64.init)
            else { return nil }
            settings = FileSignature(inode: inode, size: size, modified: modified, changed: changed)
        }
        var groups: [(id: RecordID, name: String)] = []
        var members: [RecordID: Set<RecordKey>] = [:]
        for value in groupValues {
            guard let id = value["id"]?.int.flatMap(Int32.init(exactly:)), let name = value["name"]?.string,
                let keys = value["members"]?.array
            else { return nil }
            let memberKeys = keys.compactMap { $0.string.flatMap(RecordKey.init(rawValue:)) }
            guard memberKeys.count == keys.count else { return nil }
            groups.append((id: RecordID(id), name: name))
            members[RecordID(id)] = Set(memberKeys)
        }
        return WebBookList(
            token: CardDAVSyncToken(instance: instance, sequence: sequence), settings: settings, people: people,
            groups: groups, members: members)
    }
}
