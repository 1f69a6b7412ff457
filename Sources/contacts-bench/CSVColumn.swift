/// What one column of a CSV export holds, as the import fidelity measure reads its header (see
/// ``CSVColumn/init(header:jobTitleColumn:)``), in English, German, French and Japanese.
///
/// ```swift
/// CSVColumn(header: "Home Phone", jobTitleColumn: false).kind    // .phone
/// CSVColumn(header: "E-mail 1 - Type", jobTitleColumn: false).role   // .type
/// ```
struct CSVColumn: Equatable {
    /// How a cell of the column counts.
    enum Role: Equatable {
        /// A value: one field, or several with Google's ` ::: ` between them.
        case value
        /// The type of the values of its group (Google's `Phone 1 - Type`, a Gmail 2007
        /// section's `Description`): their label, not a field.
        case type
        /// The service of an IM account of its group (Google's `IM 1 - Service`): the account's
        /// label, not a field.
        case service
        /// Outlook's flags (priority, sensitivity, private, gender): a field unless it holds
        /// Outlook's default.
        case outlookFlag
        /// Outlook's e-mail type (`SMTP`), never a field.
        case mailTransport
    }

    /// The header as written.
    var header: String
    /// How its cells count.
    var role: Role
    /// Where a value must be found; ``FieldKind/other`` for a column the measure does not
    /// know.
    var kind: FieldKind = .other
    /// The type the header gives the values.
    var label: ExpectedLabel?
    /// The group whose type cell labels the values (`phone 1`, `section 2`), for Google's
    /// layouts.
    var group: String?
    /// Whether the group's type makes a fax label (Gmail 2007's `Section 1 - Fax`: `Work`
    /// there is a work fax).
    var fax = false
    /// Whether a cell may hold several values with ` ::: ` between them.
    var multiple = false
    /// The separators between group names in a cell of groups.
    var groupSeparators: [String] = []
}
