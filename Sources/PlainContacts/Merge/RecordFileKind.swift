import FoundationEssentials
import PlainContactsSystem

/// What a file of the store holds, told by its path or, for the temporary copies Git hands to
/// merge drivers and text converters, by its contents.
enum RecordFileKind: Sendable, Hashable {
    /// A person file, `people/<key>.json`.
    case person
    /// A group file, `groups/<key>.json`.
    case group
    /// A membership file, `groups/<key>.members`.
    case members
    /// The manifest, `store.json`.
    case manifest

    /// The kind of the file at `path` holding `data`.
    ///
    /// The path decides when it says enough: a `.members` suffix, the name `store.json`, or a
    /// `.json` file inside a `people` or `groups` folder. Otherwise the contents decide: text
    /// that does not start with `{` is a membership list; an object with `"format"` and no
    /// `"id"` is a manifest; an object with `"name"` and neither `"nameHash"` nor any person
    /// property is a group; any other object is a person.
    static func detect(_ data: Data, path: String) -> RecordFileKind {
        if let kind = fromPath(path) { return kind }
        return fromContents(data)
    }

    /// The kind the path names, or `nil` when it names none (a temporary file, say).
    /// The record key a person or group file's path names (`people/<key>.json`).
    static func key(ofPath path: String) -> RecordKey? {
        guard let name = path.split(separator: "/").last, name.hasSuffix(".json"), name != StoreLayout.manifestName else { return nil }
        return RecordKey(rawValue: String(name.dropLast(5)))
    }

    static func fromPath(_ path: String) -> RecordFileKind? {
        let components = path.split(separator: "/").map(String.init)
        guard let name = components.last else { return nil }
        if name.hasSuffix(".members") { return .members }
        if name == StoreLayout.manifestName { return .manifest }
        guard name.hasSuffix(".json"), components.count >= 2 else { return nil }
        switch components[components.count - 2] {
        case StoreLayout.peopleFolderName: return .person
        case StoreLayout.groupsFolderName: return .group
        default: return nil
        }
    }

    /// The kind of the three versions Git hands a merge driver that was not told the file's
    /// path (a configuration from before `%P`): decided only when every version that is not
    /// empty reads as the same kind.
    ///
    /// A version is a membership list only when each of its lines is a record key (or blank);
    /// one starting with `{` must parse as a JSON object. Empty versions (a new or emptied
    /// membership file, a missing base) say nothing; when all are empty the file is a
    /// membership list, the one kind of store file that may be empty.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` naming `path` when a version is neither,
    ///   or when the versions disagree: the merge is then left to Git as a conflict.
    static func agreed(_ versions: [Data], path: String) throws -> RecordFileKind {
        var kinds: Set<RecordFileKind> = []
        for data in versions where !isBlank(data) {
            guard let kind = strictlyFromContents(data) else {
                throw ContactsError(
                    .malformedFile, "a version of the file is neither a record nor a membership list; merge it by hand",
                    path: path)
            }
            kinds.insert(kind)
        }
        guard kinds.count <= 1 else {
            throw ContactsError(.malformedFile, "the versions of the file hold different kinds of record; merge it by hand", path: path)
        }
        return kinds.first ?? .members
    }

    /// Whether `data` holds only spaces, tabs and line ends.
    private static func isBlank(_ data: Data) -> Bool {
        data.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// The kind `data` holds, or `nil` when it is not clearly one: JSON that does not parse as
    /// an object, or text with a line that is not a record key.
    private static func strictlyFromContents(_ data: Data) -> RecordFileKind? {
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        if firstByte == UInt8(ascii: "{") || firstByte == 0xEF {
            guard case .object? = try? JSONParser.parse(data, path: "") else { return nil }
            return fromContents(data)
        }
        return MembershipFile.firstLineNotAKey(in: data) == nil ? .members : nil
    }

    private static func fromContents(_ data: Data) -> RecordFileKind {
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        guard firstByte == UInt8(ascii: "{") || firstByte == 0xEF else { return .members }
        guard case .object(let fields)? = try? JSONParser.parse(data, path: "") else {
            // Unparseable JSON (such as a file with conflict markers): a record, most likely a person.
            return .person
        }
        if fields["format"] != nil, fields["id"] == nil { return .manifest }
        let hasPersonKey = fields["nameHash"] != nil || fields.keys.contains { PropertyID.person(key: $0) != nil && $0 != "created" && $0 != "modified" }
        if fields["name"] != nil, !hasPersonKey { return .group }
        return .person
    }
}
