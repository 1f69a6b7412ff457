/// The identifier of a record (person or group) in an address book.
///
/// A record ID is invalid until the record is first saved; from then on it is never given to
/// another record of the same type in the same store. It encodes as a bare JSON number.
///
/// The AddressBook equivalent is `ABRecordID`, with ``invalid`` for `kABRecordInvalidID`.
///
/// ```swift
/// let id = person.recordID
/// if id.isValid { print("saved as \(id)") }
/// ```
public struct RecordID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The 32-bit value, as AddressBook's `ABRecordID`.
    public var rawValue: Int32

    /// Creates a record ID from its 32-bit value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Creates a record ID from its 32-bit value.
    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The ID of a record that has never been saved (`kABRecordInvalidID`).
    public static let invalid = RecordID(rawValue: -1)

    /// Whether the ID names a saved record.
    public var isValid: Bool { rawValue > 0 }

    public static func < (lhs: RecordID, rhs: RecordID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int32.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The type of a record.
///
/// The AddressBook equivalent is `ABRecordType` (`kABPersonType`, `kABGroupType`),
/// returned by `ABRecordGetRecordType`.
public enum RecordType: String, Sendable, Hashable, Codable {
    /// A person or organization (`kABPersonType`).
    case person
    /// A group of people (`kABGroupType`).
    case group
}
