import FoundationEssentials

/// Reads and writes group record files (`groups/<key>.json`): `"id"`, `"name"`, `"created"`,
/// `"modified"`, and any unknown keys, which are kept.
package enum GroupRecordCoder {
    /// Parses a group file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``.
    package static func decode(_ data: Data, path: String) throws -> (id: RecordID, state: GroupState) {
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
    package static func encode(id: RecordID, state: GroupState) -> Data {
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
package enum MembershipFile {
    /// The member keys in a file. Blank lines, duplicates, surrounding spaces and CRLF line
    /// ends are tolerated; lines that are not valid keys are ignored.
    ///
    /// - Throws: ``ContactsError/Code/conflictMarkers`` when the file holds Git conflict markers.
    package static func decode(_ data: Data, path: String) throws -> Set<RecordKey> {
        var keys = Set<RecordKey>()
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("<<<<<<<") || text.hasPrefix(">>>>>>>") || text == "=======" {
                throw ContactsError(
                    .conflictMarkers,
                    "unresolved Git merge conflict; keep the lines of both sides and delete the markers, or run `contacts doctor --fix`",
                    path: path, line: lineNumber)
            }
            if let key = RecordKey(rawValue: text) { keys.insert(key) }
        }
        return keys
    }

    /// The canonical bytes for a set of member keys.
    package static func encode(_ keys: Set<RecordKey>) -> Data {
        var text = ""
        for key in keys.sorted() {
            text += key.rawValue
            text += "\n"
        }
        return Data(text.utf8)
    }
}
