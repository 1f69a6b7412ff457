/// One property that changed differently in two places, reported by a save that could not
/// merge.
///
/// ```swift
/// catch let error as ContactsError where error.code == .conflict {
///     for conflict in error.conflicts { print(conflict) }   // "person 12: phones"
/// }
/// ```
public struct SaveConflict: Sendable, Hashable, CustomStringConvertible {
    /// The type of the record.
    public var recordType: RecordType
    /// The record's ID.
    public var recordID: RecordID
    /// The property key that conflicts (`"phones"`, `"note"`, `"members"`), or `"record"` when the
    /// record was deleted on one side and edited on the other.
    public var property: String

    /// Creates a conflict description.
    public init(recordType: RecordType, recordID: RecordID, property: String) {
        self.recordType = recordType
        self.recordID = recordID
        self.property = property
    }

    public var description: String { "\(recordType.rawValue) \(recordID): \(property)" }
}
