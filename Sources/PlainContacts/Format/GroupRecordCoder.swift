import FoundationEssentials
import PlainContactsSystem

/// Reads and writes group record files (`groups/<key>.json`): `"id"`, `"name"`, `"created"`,
/// `"modified"`, and any unknown keys, which are kept.
enum GroupRecordCoder {
    /// Parses a group file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``.
    static func decode(_ data: Data, path: String) throws -> (id: RecordID, state: GroupState) {
        let json = try JSONParser.parse(data, path: path)
        guard case .object(var fields) = json else {
            throw ContactsError(.malformedFile, "a group file must hold one JSON object", path: path)
        }
        let reader = FieldReader(path: path)
        guard let idValue = fields.removeValue(forKey: "id") else {
            throw ContactsError(.malformedFile, "the group has no \"id\"; add a unique positive number", path: path)
        }
        let id = try reader.recordID(idValue)
        var state = GroupState()
        if let value = fields.removeValue(forKey: "name") { state.name = try reader.string(value, key: "name") }
        if let value = fields.removeValue(forKey: "created") {
            state.creationDate = try reader.timestamp(value, key: "created")
        }
        if let value = fields.removeValue(forKey: "modified") {
            state.modificationDate = try reader.timestamp(value, key: "modified")
        }
        state.unknownFields = fields
        return (id, state)
    }

    /// The canonical bytes of a group file.
    static func encode(id: RecordID, state: GroupState) -> Data {
        var fields = state.unknownFields
        fields["id"] = .number(JSONNumber(Int(id.rawValue)))
        fields["name"] = state.name.map(JSONValue.string)
        fields["created"] = state.creationDate.map { .string(Timestamp.format($0)) }
        fields["modified"] = state.modificationDate.map { .string(Timestamp.format($0)) }
        return CanonicalJSON.encode(.object(fields))
    }
}

/// Reads and writes membership files (`groups/<key>.members`): one member's record key per
/// line, sorted by bytes, each line ending in `\n`, so that adding or removing a member is a
/// one-line diff and Git's union merge never conflicts.
enum MembershipFile {
    /// The member keys in a file. Blank lines, duplicates, surrounding spaces and CRLF line
    /// ends are tolerated; lines that are not valid keys are ignored.
    ///
    /// - Throws: ``ContactsError/Code/conflictMarkers`` when the file holds Git conflict markers.
    static func decode(_ data: Data, path: String) throws -> Set<RecordKey> {
        let bytes = [UInt8](data)
        var keys = Set<RecordKey>(minimumCapacity: bytes.lazy.filter { $0 == UInt8(ascii: "\n") }.count + 1)
        var lineNumber = 0
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            lineNumber += 1
            // Trim ASCII spaces, tabs and carriage returns (keys never contain them).
            var first = lineStart
            var last = lineEnd
            while first < last, isBlank(bytes[first]) { first += 1 }
            while last > first, isBlank(bytes[last - 1]) { last -= 1 }
            let line = bytes[first..<last]
            if line.starts(with: conflictStart) || line.starts(with: conflictEnd) || line.elementsEqual(conflictMiddle) {
                throw ContactsError(
                    .conflictMarkers,
                    "unresolved Git merge conflict; keep the lines of both sides and delete the markers, or run `contacts doctor --fix`",
                    path: path, line: lineNumber)
            }
            if !line.isEmpty, let key = RecordKey(rawValue: String(decoding: line, as: UTF8.self)) {
                keys.insert(key)
            }
            lineStart = lineEnd + 1
        }
        return keys
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }

    private static let conflictStart = Array("<<<<<<<".utf8)
    private static let conflictEnd = Array(">>>>>>>".utf8)
    private static let conflictMiddle = Array("=======".utf8)

    /// The canonical bytes for a set of member keys.
    static func encode(_ keys: Set<RecordKey>) -> Data {
        var text = ""
        for key in keys.sorted() {
            text += key.rawValue
            text += "\n"
        }
        return Data(text.utf8)
    }
}
