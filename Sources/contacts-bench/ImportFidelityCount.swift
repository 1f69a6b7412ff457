/// The counting of the import fidelity measure for one file: each record of the export paired
/// with the imported person that holds most of its fields, each field and label looked up in
/// that person (see ``FieldMatcher``); a group record in the group of its name, its other
/// fields among the group's kept fields.
///
/// ```swift
/// let count = ImportFidelityCount(records: records, people: views, groups: groupViews)
/// count.fieldsKept   // of count.fields
/// ```
struct ImportFidelityCount: Equatable {
    /// A field, or a field's label, not found again.
    struct Loss: Equatable, Encodable {
        /// `field` or `label`.
        var what: String
        /// The line of the original file.
        var line: Int
        /// The column, attribute, key or tag.
        var column: String
        /// The value as the export wrote it.
        var value: String
        /// The kind of the field (for a lost field) or the label expected (for a lost label).
        var expected: String
    }

    /// The records that hold any field.
    var records = 0
    /// The fields counted, and those found again.
    var fields = 0
    var fieldsKept = 0
    /// The labels counted (one per field whose source gives one), and those found again.
    var labels = 0
    var labelsKept = 0
    /// Each field lost, and each label lost on a field found (a lost field's label is lost
    /// with it and not listed again).
    var losses: [Loss] = []

    /// Counts `records` against what the import made.
    init(records: [SourceRecord], people: [ImportedPersonView], groups: [ImportedGroupView]) {
        var taken = Set<Int>()
        for record in records where !record.fields.isEmpty {
            self.records += 1
            if let groupName = record.groupName {
                count(group: record, in: groups, named: groupName)
                continue
            }
            let scores = people.indices.filter { !taken.contains($0) }.map { index in
                (index, record.fields.filter { FieldMatcher.match($0, in: people[index]).found }.count)
            }
            let best = scores.max { $0.1 < $1.1 }
            if let best, best.1 > 0 {
                taken.insert(best.0)
                for field in record.fields { tally(field, FieldMatcher.match(field, in: people[best.0])) }
            } else {
                for field in record.fields { tally(field, .lost) }
            }
        }
    }

    /// Counts a group record: its names are found when a group has them, its members in the
    /// group of its name; a name that names no group, and anything else a group cannot hold,
    /// is found when that group keeps it (an LDIF list's `description`).
    private mutating func count(group record: SourceRecord, in groups: [ImportedGroupView], named name: String) {
        let names = Set(groups.map { FieldMatcher.key($0.name) })
        let candidates = [name] + record.fields.filter { $0.kind == .groupName }.map(\.value)
        let group = candidates.lazy.compactMap { candidate in
            groups.first { FieldMatcher.key($0.name) == FieldMatcher.key(candidate) }
        }.first
        for field in record.fields {
            let found: Bool
            switch field.kind {
            case .groupName:
                found = names.contains(FieldMatcher.key(field.value)) || (group?.keeps(field.value) ?? false)
            case .member: found = group?.contains(member: field.value) ?? false
            default: found = group?.keeps(field.value) ?? false
            }
            tally(field, FieldMatcher.Result(found: found, labelKept: false))
        }
    }

    /// Counts one field and its label as `result` found them.
    private mutating func tally(_ field: SourceField, _ result: FieldMatcher.Result) {
        fields += 1
        if result.found {
            fieldsKept += 1
        } else {
            losses.append(Loss(what: "field", line: field.line, column: field.column, value: field.value, expected: field.kind.description))
        }
        guard let label = field.label else { return }
        labels += 1
        if result.labelKept {
            labelsKept += 1
        } else if result.found {
            losses.append(Loss(what: "label", line: field.line, column: field.column, value: field.value, expected: label.name))
        }
    }
}
