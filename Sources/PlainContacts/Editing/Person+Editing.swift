import FoundationEssentials
import PlainContactsSystem

/// Changing a person from JSON: `contacts set` and `contacts edit`.
extension Person {
    /// The properties a person may edit, as the JSON object that `contacts edit` opens: every
    /// set property except the store-maintained dates, in the record file's form (multi-value
    /// entries keep their `"id"`), plus `"kind"`.
    ///
    /// ```swift
    /// let text = CanonicalJSON.encode(person.editableJSON)
    /// ```
    package var editableJSON: JSONValue {
        var fields: [String: JSONValue] = [:]
        for (property, value) in state.values where !property.isReadOnly {
            fields[property.key] = FieldWriter.json(value)
        }
        fields[PropertyID.kind.key] = .string(kind.rawValue)
        return .object(fields)
    }

    /// Applies `KEY=VALUE` edits, all or nothing: when one fails, the person is unchanged.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` when a value does not have its property's
    ///   shape; ``ContactsError/Code/invalidValue`` for an impossible date.
    package func apply(_ edits: [PropertyEdit]) throws {
        var changes: [PropertyID: JSONValue] = [:]
        for edit in edits { changes[edit.property] = edit.json }
        try replace(changes, path: nil)
    }

    /// Replaces every editable property with what an edited ``editableJSON`` holds: keys that
    /// are gone remove their property. All or nothing: when the JSON is wrong, the person is
    /// unchanged.
    ///
    /// Multi-value entries that keep their `"id"` keep that identifier; entries without one,
    /// or with an identifier this record never gave out, get new ones.
    ///
    /// - Parameters:
    ///   - json: The edited object.
    ///   - path: The file the JSON was read from, named in errors.
    /// - Throws: ``ContactsError/Code/malformedFile`` when it is not an object or a value does
    ///   not have its property's shape; ``ContactsError/Code/unknownProperty`` for a key that is
    ///   no editable property; ``ContactsError/Code/invalidValue`` for an impossible date.
    package func replaceEditableProperties(with json: JSONValue, path: String?) throws {
        guard case .object(let fields) = json else {
            throw ContactsError(.malformedFile, "the person must be one JSON object", path: path)
        }
        var changes: [PropertyID: JSONValue] = [:]
        for property in PropertyID.personProperties where !property.isReadOnly {
            changes[property] = .null
        }
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard let property = PropertyID.person(key: key), !property.isReadOnly else {
                throw ContactsError(
                    .unknownProperty,
                    "\"\(key)\" is not an editable person property; the keys are \(PropertyEdit.editableKeys.joined(separator: ", "))",
                    path: path)
            }
            changes[property] = value
        }
        try replace(changes, path: path)
    }

    /// Decodes every change first, then sets them in one step.
    private func replace(_ changes: [PropertyID: JSONValue], path: String?) throws {
        var decodingCounter = state.nextValueIdentifier
        var decoded: [(PropertyID, PropertyValue?)] = []
        for property in PropertyID.personProperties {
            guard let json = changes[property] else { continue }
            decoded.append((property, try PropertyEdit.decode(json, property: property, path: path, counter: &decodingCounter)))
        }
        var newState = state
        var counter = state.nextValueIdentifier
        for (property, value) in decoded {
            newState.values[property] = try value?.reconciled(
                with: state.values[property], recordCounter: &counter, spreading: key != nil)
        }
        newState.nextValueIdentifier = counter
        if newState != state { state = newState }
    }
}
