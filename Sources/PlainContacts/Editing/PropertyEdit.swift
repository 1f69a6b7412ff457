import FoundationEssentials
import PlainContactsSystem

/// One `KEY=VALUE` change to a person property, as `contacts set` takes it.
///
/// The key is the property's key in the record file (``PropertyID/key``). The value is plain
/// text for text properties, `YYYY-MM-DD` or `--MM-DD` for `birthday`, `person` or
/// `organization` for `kind`, and JSON for multi-values: an array of
/// `{"label": …, "value": …}` objects, where an entry that keeps its `"id"` keeps that
/// identifier and an entry without one gets a new identifier. An empty value removes the
/// property.
///
/// ```swift
/// let edits = try [
///     PropertyEdit(key: "jobTitle", text: "Engineer"),
///     PropertyEdit(key: "phones", text: #"[{"label": "mobile", "value": "555-0100"}]"#),
///     PropertyEdit(key: "note", text: ""),
/// ]
/// try person.apply(edits)
/// ```
package struct PropertyEdit: Sendable, Hashable {
    /// The property to change.
    package let property: PropertyID
    /// The new value in its record-file JSON form; `null` removes the property.
    let json: JSONValue

    /// Parses a value given as text for the property stored under `key`.
    ///
    /// - Throws: ``ContactsError/Code/unknownProperty`` when `key` names no person property or
    ///   one the store maintains (`created`, `modified`); ``ContactsError/Code/malformedFile``
    ///   when a multi-value is not valid JSON or not an array of entries;
    ///   ``ContactsError/Code/invalidValue`` for an impossible date or an unknown kind.
    package init(key: String, text: String) throws {
        guard let property = PropertyID.person(key: key) else {
            throw ContactsError(
                .unknownProperty,
                "\"\(key)\" is not a person property; the keys are \(PropertyEdit.editableKeys.joined(separator: ", "))")
        }
        guard !property.isReadOnly else {
            throw ContactsError(.unknownProperty, "\"\(key)\" is maintained by the store and cannot be set")
        }
        self.property = property
        if text.isEmpty {
            json = .null
            return
        }
        switch property.type {
        case .string, .timestamp:
            json = .string(text)
        case .date:
            guard (try? ContactDate(parsing: text)) != nil else {
                throw ContactsError(
                    .invalidValue, "\"\(key)\" must be a date written YYYY-MM-DD, or --MM-DD without a year")
            }
            json = .string(text)
        case .kind:
            guard PersonKind(rawValue: text) != nil else {
                throw ContactsError(.invalidValue, "\"\(key)\" must be \"person\" or \"organization\"")
            }
            json = .string(text)
        case .multiString, .multiDate, .multiAddress, .multiInstantMessage, .multiSocialProfile:
            do {
                json = try JSONParser.parse(Data(text.utf8), path: key)
            } catch {
                throw ContactsError(
                    .malformedFile,
                    "the value given for \"\(key)\" is not valid JSON (\(PropertyEdit.position(of: error))\(error.message))")
            }
            // Check the shape now, so that a mistake is reported before anything changes.
            var counter: Int32 = 0
            _ = try PropertyEdit.decode(json, property: property, path: nil, counter: &counter)
        }
    }

    /// Where in a one-argument JSON text a syntax error is: `column 7: ` or `line 2, column 3: `.
    private static func position(of error: ContactsError) -> String {
        guard let line = error.line else { return "" }
        let column = error.column.map { "column \($0)" } ?? ""
        return line > 1 ? "line \(line), \(column): " : "\(column): "
    }

    /// The keys of the properties that can be edited, in the person view's order.
    package static var editableKeys: [String] {
        PropertyID.personProperties.filter { !$0.isReadOnly }.map(\.key)
    }

    /// Decodes a record-file JSON value of `property`; `nil` for `null`, an empty text or an
    /// empty list.
    static func decode(_ json: JSONValue, property: PropertyID, path: String?, counter: inout Int32) throws -> PropertyValue? {
        do {
            let value = try FieldReader(path: path ?? "").propertyValue(json, property: property, counter: &counter)
            guard let value, !value.isEmpty else { return nil }
            return value
        } catch var error as ContactsError {
            error.path = path
            throw error
        }
    }
}
