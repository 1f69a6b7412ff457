import FoundationEssentials
import Glibc
import PlainContactsSystem

/// Reads and writes person record files (`people/<key>.json`).
///
/// A record is one JSON object: `"id"`, each set property under its ``PropertyID/key``,
/// `"nameHash"` (the hash of the normalized first and last name, for re-identification),
/// `"nextValueID"` (the next multi-value identifier), `"image"` (the sidecar file name) and
/// `"mergedKeys"` (keys of people merged into this one). Keys this version does not know are
/// kept and written back unchanged.
enum PersonRecordCoder {
    /// What a person file holds.
    struct Decoded: Sendable {
        var id: RecordID
        var state: PersonState
        /// The name hash written in the file, which may be stale after a hand edit.
        var storedNameHash: NameHash?
    }

    private static let bookkeepingKeys: Set<String> = ["id", "nameHash", "nextValueID", "image", "mergedKeys"]

    /// Parses a person file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` (with line and column for JSON syntax, or
    ///   naming the key whose value has the wrong shape) or ``ContactsError/Code/conflictMarkers``.
    static func decode(_ data: Data, path: String) throws -> Decoded {
        let json = try JSONParser.parse(data, path: path)
        return try decode(json, path: path)
    }

    /// Parses a person record given as JSON.
    static func decode(_ json: JSONValue, path: String) throws -> Decoded {
        guard case .object(var fields) = json else {
            throw ContactsError(.malformedFile, "a person file must hold one JSON object", path: path)
        }
        let reader = FieldReader(path: path)
        guard let idValue = fields.removeValue(forKey: "id") else {
            throw ContactsError(.malformedFile, "the record has no \"id\"; add a unique positive number", path: path)
        }
        let id = try reader.recordID(idValue)
        var state = PersonState()
        var storedHash: NameHash?
        if let value = fields.removeValue(forKey: "nameHash") {
            storedHash = try reader.string(value, key: "nameHash").flatMap(NameHash.init)
        }
        if let value = fields.removeValue(forKey: "nextValueID") {
            state.nextValueIdentifier = try reader.int32(value, key: "nextValueID")
        }
        if let value = fields.removeValue(forKey: "image") {
            if let name = try reader.string(value, key: "image"), !name.isEmpty {
                guard !name.utf8.contains(UInt8(ascii: "/")), !name.hasPrefix(".") else {
                    throw ContactsError(.malformedFile, "\"image\" must be a file name inside people/", path: path)
                }
                state.image = .stored(fileName: name)
            }
        }
        if let value = fields.removeValue(forKey: "mergedKeys") {
            state.mergedKeys = try reader.stringArray(value, key: "mergedKeys")
        }
        for property in PropertyID.personProperties {
            guard let value = fields.removeValue(forKey: property.key) else { continue }
            if let decoded = try reader.propertyValue(value, property: property, counter: &state.nextValueIdentifier) {
                state.values[property] = decoded
            }
        }
        state.unknownFields = fields
        return Decoded(id: id, state: state, storedNameHash: storedHash)
    }

    /// The canonical bytes of a person file.
    static func encode(id: RecordID, state: PersonState) -> Data {
        CanonicalJSON.encode(json(id: id, state: state))
    }

    /// The JSON of a person file, whose canonical form is its bytes (``encode(id:state:)``).
    static func json(id: RecordID, state: PersonState) -> JSONValue {
        var fields = state.unknownFields
        fields["id"] = .number(JSONNumber(Int(id.rawValue)))
        fields["nameHash"] = .string(state.nameHash.rawValue)
        if state.nextValueIdentifier > 0 {
            fields["nextValueID"] = .number(JSONNumber(Int(state.nextValueIdentifier)))
        }
        if case .stored(let fileName) = state.image {
            fields["image"] = .string(fileName)
        }
        if !state.mergedKeys.isEmpty {
            fields["mergedKeys"] = .array(state.mergedKeys.sorted().map(JSONValue.string))
        }
        for (property, value) in state.values {
            fields[property.key] = FieldWriter.json(value)
        }
        return .object(fields)
    }
}

/// Turns property values into their JSON form: the record file's (`keepingUnknownFields`
/// true, so nothing a file held is lost) or the command's `--json` view (false, only the keys
/// of the output contract).
enum FieldWriter {
    static func json(_ value: PropertyValue, keepingUnknownFields keep: Bool = true) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .timestamp(let date): .string(Timestamp.format(date))
        case .date(let date): .string(date.description)
        case .kind(let kind): .string(kind.rawValue)
        case .multiString(let values): multi(values, keep) { .string($0) }
        case .multiDate(let values): multi(values, keep) { .string($0.description) }
        case .multiAddress(let values): multi(values, keep) { address($0, keepingUnknownFields: keep) }
        case .multiInstantMessage(let values): multi(values, keep) { instantMessage($0, keepingUnknownFields: keep) }
        case .multiSocialProfile(let values): multi(values, keep) { socialProfile($0, keepingUnknownFields: keep) }
        }
    }

    static func multi<Value>(
        _ values: MultiValue<Value>, _ keep: Bool = true, _ encode: (Value) -> JSONValue
    ) -> JSONValue {
        .array(values.entries.map { entry in
            var fields = keep ? entry.unknownFields : [:]
            fields["id"] = .number(JSONNumber(Int(entry.identifier.rawValue)))
            if let label = entry.label { fields["label"] = .string(label.rawValue) }
            fields["value"] = encode(entry.value)
            return .object(fields)
        })
    }

    static func address(_ address: PostalAddress, keepingUnknownFields keep: Bool = true) -> JSONValue {
        var fields = keep ? address.unknownFields : [:]
        fields["poBox"] = address.poBox.map(JSONValue.string)
        fields["extendedAddress"] = address.extendedAddress.map(JSONValue.string)
        fields["street"] = address.street.map(JSONValue.string)
        fields["city"] = address.city.map(JSONValue.string)
        fields["state"] = address.state.map(JSONValue.string)
        fields["zip"] = address.zip.map(JSONValue.string)
        fields["country"] = address.country.map(JSONValue.string)
        fields["countryCode"] = address.countryCode.map(JSONValue.string)
        return .object(fields)
    }

    static func instantMessage(_ account: InstantMessage, keepingUnknownFields keep: Bool = true) -> JSONValue {
        var fields = keep ? account.unknownFields : [:]
        fields["service"] = account.service.map(JSONValue.string)
        fields["username"] = account.username.map(JSONValue.string)
        return .object(fields)
    }

    static func socialProfile(_ profile: SocialProfile, keepingUnknownFields keep: Bool = true) -> JSONValue {
        var fields = keep ? profile.unknownFields : [:]
        fields["url"] = profile.url.map(JSONValue.string)
        fields["service"] = profile.service.map(JSONValue.string)
        fields["username"] = profile.username.map(JSONValue.string)
        fields["identifier"] = profile.identifier.map(JSONValue.string)
        return .object(fields)
    }
}

extension PersonRecordCoder {
    /// What the bytes of a person file say of its stored vCard UID, read without decoding.
    enum StoredUID: Sendable, Equatable {
        /// The file stores this UID.
        case uid(String)
        /// The file stores none.
        case none
        /// The bytes are not in the form the store writes (or the UID is escaped): decode the
        /// file to know.
        case undecided
    }

    /// Whether a person file's bytes may name an image: whether they hold the key `"image"`,
    /// spelt so in every file the store writes (a value spelt so answers `true` too). Found
    /// with `memchr` and `memcmp`: Foundation's generic search took most of a listing's time.
    static func mayNameImage(inStoreWritten bytes: Data) -> Bool {
        let key = Array("\"image\"".utf8)
        return bytes.withUnsafeBytes { haystack in
            key.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress, haystack.count >= key.count
                else { return false }
                let last = haystack.count - key.count
                var offset = 0
                while offset <= last {
                    guard let found = memchr(base + offset, Int32(key[0]), last - offset + 1) else { return false }
                    if memcmp(found, patternBase, key.count) == 0 { return true }
                    offset = base.distance(to: UnsafeRawPointer(found)) + 1
                }
                return false
            }
        }
    }

    /// The UID a person file stores, found in its bytes as the store writes them (canonical
    /// JSON: a top-level key on its own line, two spaces in), without decoding the file: what
    /// a program that needs the UIDs of thousands of files at once (the server's first listing
    /// after an import or a pull) can afford. Bytes in any other form, a UID with an escape,
    /// or a `"uid"` written more than once answer ``StoredUID/undecided``.
    ///
    /// The file is not checked otherwise: a record whose other fields cannot be read still
    /// answers its UID.
    static func storedUID(inStoreWritten bytes: Data) -> StoredUID {
        bytes.withUnsafeBytes { buffer in
            let bytes = buffer.bindMemory(to: UInt8.self)
            guard bytes.count >= 4, bytes[0] == UInt8(ascii: "{"), bytes[1] == 0x0A,
                bytes[bytes.count - 2] == UInt8(ascii: "}"), bytes[bytes.count - 1] == 0x0A
            else { return .undecided }
            let key = Array("\"uid\"".utf8)
            var found: Int?
            var index = 0
            while index + key.count <= bytes.count {
                let byte = bytes[index]
                // A key spelt with an escape could be "uid" too.
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                    return .undecided
                }
                if byte == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "i"),
                    bytes[index + 3] == UInt8(ascii: "d"), bytes[index + 4] == UInt8(ascii: "\"")
                {
                    guard found == nil else { return .undecided }
                    found = index
                }
                index += 1
            }
            guard let found else { return .none }
            // `\n  "uid": "…"` with nothing escaped in the value.
            let prefix = Array("\n  ".utf8)
            let separator = Array(": \"".utf8)
            guard found >= prefix.count, Array(bytes[(found - prefix.count)..<found]) == prefix,
                found + key.count + separator.count <= bytes.count,
                Array(bytes[(found + key.count)..<(found + key.count + separator.count)]) == separator
            else { return .undecided }
            let start = found + key.count + separator.count
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                if bytes[end] == UInt8(ascii: "\\") || bytes[end] == 0x0A { return .undecided }
                end += 1
            }
            guard end < bytes.count else { return .undecided }
            return .uid(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        }
    }
}
