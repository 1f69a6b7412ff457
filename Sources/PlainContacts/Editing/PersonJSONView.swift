import FoundationEssentials
import PlainContactsSystem

/// The JSON view of a person that programs read: `contacts show --json`, `list --json` and
/// `search --json` print it.
///
/// Keys are camelCase and absent properties are left out. `id`, `kind`, `groups` and
/// `hasImage` are always present; `ref` is present once the person is saved. A multi-value is
/// an array of `{"id": 3, "label": "mobile", "value": …}` objects (no `label` when there is
/// none); an address value is an object with `poBox`, `extendedAddress`, `street`, `city`,
/// `state`, `zip`, `country` and `countryCode`, an instant-message value one with `service`
/// and `username`, a social profile one with `url`, `service`, `username` and `identifier`. Dates are `YYYY-MM-DD` or
/// `--MM-DD`, creation and modification times `2026-11-23T07:36:31Z`.
///
/// Unlike the record file it carries no bookkeeping (`nameHash`, `nextValueID`, unknown keys),
/// and it adds what a reader would otherwise have to compute: the composite name, the group
/// names and the long-term reference. `keptLines`, when present, lists what an import had no
/// place for, as vCard content lines that export writes back (`GENDER:F`, a CSV column as
/// `X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Shoe size":38`).
///
/// ```swift
/// let text = CanonicalJSON.encode(PersonJSONView.json(of: katie, in: book))
/// // {
/// //   "compositeName": "Katie Bell",
/// //   "firstName": "Katie",
/// //   "groups": [],
/// //   "hasImage": false,
/// //   "id": 12,
/// //   …
/// ```
package enum PersonJSONView {
    /// The view of `person`, who belongs to `book`.
    package static func json(of person: Person, in book: AddressBook) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        fields["id"] = .number(JSONNumber(Int(person.recordID.rawValue)))
        if let reference = book.reference(to: person) {
            fields["ref"] = .string(reference.description)
        }
        fields["kind"] = .string(person.kind.rawValue)
        if let name = person.compositeName {
            fields["compositeName"] = .string(name)
        }
        for (property, value) in person.state.values where property != .kind {
            fields[property.key] = FieldWriter.json(value, keepingUnknownFields: false)
        }
        fields["groups"] = .array(book.groups(containing: person).compactMap { $0.name.map(JSONValue.string) })
        fields["hasImage"] = .bool(person.hasImage)
        let kept = VCardRecordFields.lines(of: person.state)
        if !kept.isEmpty { fields["keptLines"] = .array(kept.map(JSONValue.string)) }
        return .object(fields)
    }

    /// The view of several people, as one JSON array in the given order.
    package static func json(of people: [Person], in book: AddressBook) -> JSONValue {
        .array(people.map { json(of: $0, in: book) })
    }
}
