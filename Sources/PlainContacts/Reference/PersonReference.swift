/// A long-term reference to a person that survives renumbering: the record ID, a hash of the
/// normalized first and last name, and the record's file key.
///
/// Record IDs can change when two clones of a store are merged; keep a reference instead of a
/// bare ID and resolve it with ``AddressBook/resolve(_:)``. The text form (``description``) is
/// opaque and stable, suitable for saving in another program's files.
///
/// The AddressBook guidance this follows: store the record ID together with the name, look the
/// record up by ID, and when the name no longer matches, search by name.
///
/// ```swift
/// let reference = try #require(book.reference(to: katie))
/// UserDefaults.standard.set(reference.description, forKey: "favorite")
/// // later
/// if let saved = PersonReference(text), case .found(let person) = book.resolve(saved) { … }
/// ```
public struct PersonReference: Sendable, Hashable, Codable, LosslessStringConvertible {
    /// The record ID when the reference was taken.
    public let recordID: RecordID
    /// The name hash when the reference was taken.
    public let nameHash: NameHash
    /// The record's file key, which never changes for the life of the record.
    let key: String

    init(recordID: RecordID, nameHash: NameHash, key: String) {
        self.recordID = recordID
        self.nameHash = nameHash
        self.key = key
    }

    /// The opaque text form, `v1:<id>:<hash>:<key>`.
    public var description: String {
        "v1:\(recordID.rawValue):\(nameHash.rawValue):\(key)"
    }

    /// Parses the text form; `nil` when it is not a reference.
    public init?(_ description: String) {
        let parts = description.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "v1", let id = Int32(parts[1]), id > 0,
            let hash = NameHash(String(parts[2])), RecordKey(rawValue: String(parts[3])) != nil
        else { return nil }
        self.init(recordID: RecordID(id), nameHash: hash, key: String(parts[3]))
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let reference = PersonReference(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a person reference"))
        }
        self = reference
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// What resolving a ``PersonReference`` found.
public enum ReferenceResolution {
    /// The record ID still names the same person.
    case found(Person)
    /// The person lives on under another record ID (after renumbering or a merge of
    /// duplicates); store the fresh reference.
    case reidentified(Person, PersonReference)
    /// Several people have the referenced name and none is the original record; ask the user.
    case ambiguous([Person])
    /// No such person any more.
    case notFound
}
