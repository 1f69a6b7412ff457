import Foundation

/// One contact or group of an export, as the import fidelity measure reads it: the fields that
/// an import should find again, and what was left out of the count.
///
/// ```swift
/// var record = SourceRecord(line: 2)
/// record.fields.append(SourceField(line: 2, column: "Email", value: "k@x.example", kind: .email, label: nil))
/// ```
struct SourceRecord: Equatable {
    /// The 1-based line where the record starts.
    var line: Int
    /// The group's name when the record is a group (an LDIF `groupOfNames`, a mutt or Eudora
    /// alias of several addresses), `nil` for a person.
    var groupName: String?
    /// The fields to find again.
    var fields: [SourceField] = []
    /// How many values were left out of the count, by the reason (see ``Exclusion``).
    var excluded: [Exclusion: Int] = [:]

    /// Starts a record of a person, or of a group with `groupName`.
    init(line: Int, groupName: String? = nil) {
        self.line = line
        self.groupName = groupName
    }

    /// Adds a field; an empty value (after trimming) is counted as excluded instead.
    mutating func add(_ column: String, _ value: String, kind: FieldKind, label: ExpectedLabel? = nil, line: Int? = nil) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            exclude(.empty)
            return
        }
        fields.append(SourceField(line: line ?? self.line, column: column, value: trimmed, kind: kind, label: label))
    }

    /// Counts a value left out of the count.
    mutating func exclude(_ reason: Exclusion) {
        excluded[reason, default: 0] += 1
    }
}
