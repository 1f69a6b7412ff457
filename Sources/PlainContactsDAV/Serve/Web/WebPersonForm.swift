#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// The form that edits or adds a person on the web pages: its fields, what a person fills them
/// with, and the changes (``PropertyEdit``, the language of `contacts set`) a sent form makes.
///
/// Every property `contacts set` can set has its fields. Text properties are one field each,
/// named by their key in the record file (`firstName`, `note`…), the birthday one field
/// (`YYYY-MM-DD` or `--MM-DD`), the kind a choice. Each multi-value (phones, emails, web
/// addresses, related names, dates, addresses, instant messages, social profiles) is a list of
/// rows: a label and the value's parts (`phones.0.label`, `phones.0.value`,
/// `addresses.1.city`), each row keeping its value's identifier (`phones.0.id`); a row whose
/// parts are all empty or whose `remove` box is ticked is removed, and blank rows at the end
/// add values. The photo is a file (JPEG, PNG, GIF or WebP) or a box that removes it.
///
/// A form's buttons other than Save change the form without saving it (``perform(_:)``): move
/// a row up or down, add a blank row; the page then shows the form again, so that all of it
/// works without JavaScript.
///
/// ```swift
/// let form = WebPersonForm(person)
/// let edits = try WebPersonForm(sent: WebForm(body)).edits(over: person)   // [firstName=…, phones=[…]]
/// ```
struct WebPersonForm: Sendable {
    /// The text properties, in the person view's order.
    static let textProperties = PropertyID.personProperties.filter { $0.type == .string && !$0.isReadOnly }
    /// The multi-value properties, edited as rows, in the person view's order.
    static let rowProperties = PropertyID.personProperties.filter { property in
        let multiValues: [PropertyType] = [.multiString, .multiDate, .multiAddress, .multiInstantMessage, .multiSocialProfile]
        return multiValues.contains(property.type) && !property.isReadOnly
    }
    /// Blank rows offered below a property's values, to add some.
    static let blankRows = 1
    /// The field of the photo's file, and of the box that removes the photo.
    static let photoField = "photo"
    static let removePhotoField = "photo.remove"
    /// The field whose value says which button sent the form.
    static let actionField = "action"

    /// One row of a multi-value.
    struct Row: Sendable, Hashable {
        /// The value's identifier, as text; empty for a new value.
        var id = ""
        var label = ""
        /// The value's parts by name: `value` for a text or a date, the address's or the
        /// account's fields otherwise (``parts(of:)``).
        var parts: [String: String] = [:]
        /// Whether the row's remove box is ticked.
        var removed = false

        init(id: String = "", label: String = "", value: String) {
            self.id = id
            self.label = label
            parts = ["value": value]
        }

        init(id: String, label: String, parts: [String: String], removed: Bool = false) {
            self.id = id
            self.label = label
            self.parts = parts
            self.removed = removed
        }

        /// Whether every part is empty or white space.
        var isBlank: Bool { parts.values.allSatisfy { $0.allSatisfy(\.isWhitespace) } }
    }

    /// The text of each text property, of `birthday` and of `kind`, by key.
    var texts: [String: String] = [:]
    /// The rows of each row property, by key.
    var rows: [String: [Row]] = [:]
    /// Blank rows asked for with an Add button, by property key.
    var added: [String: Int] = [:]
    /// The photo's bytes a sent form carries.
    var photo: Data?
    /// Whether the form asks to remove the photo.
    var removesPhoto = false
    /// The problem with each field, by field name, after ``edits(over:)`` failed.
    var problems: [String: String] = [:]

    /// An empty form, for a new person.
    init() {}

    /// The form filled with what `person` holds.
    init(_ person: Person) {
        for property in Self.textProperties {
            if case .string(let text)? = person.value(for: property) { texts[property.key] = text }
        }
        texts[PropertyID.birthday.key] = person.birthday?.description
        texts[PropertyID.kind.key] = person.kind.rawValue
        guard case .object(let fields) = person.editableJSON else { return }
        for property in Self.rowProperties {
            guard case .array(let entries)? = fields[property.key] else { continue }
            rows[property.key] = entries.compactMap { entry in
                guard case .object(let entry) = entry else { return nil }
                let id = Self.identifier(entry["id"])
                let label = entry["label"]?.string ?? ""
                switch entry["value"] {
                case .string(let text)?: return Row(id: id, label: label, value: text)
                case .object(let value)?:
                    let parts = Self.parts(of: property).reduce(into: [String: String]()) { parts, part in
                        parts[part.key] = value[part.key]?.string ?? ""
                    }
                    return Row(id: id, label: label, parts: parts)
                default: return nil
                }
            }
        }
    }

    /// The form as a browser sent it.
    init(sent form: WebForm) {
        for property in Self.textProperties + [.birthday, .kind] {
            if let text = form[property.key] { texts[property.key] = text }
        }
        var highest: [String: Int] = [:]
        for field in form.fields {
            let pieces = field.name.split(separator: ".")
            guard pieces.count == 3, let index = Int(pieces[1]), index >= 0, index < 1000 else { continue }
            highest[String(pieces[0]), default: -1] = max(highest[String(pieces[0])] ?? -1, index)
        }
        for property in Self.rowProperties {
            guard let last = highest[property.key] else { continue }
            rows[property.key] = (0...last).map { index in
                let prefix = "\(property.key).\(index)."
                let parts = Self.parts(of: property).reduce(into: [String: String]()) { parts, part in
                    parts[part.key] = form[prefix + part.key] ?? ""
                }
                return Row(id: form[prefix + "id"] ?? "", label: form[prefix + "label"] ?? "", parts: parts, removed: form[prefix + "remove"] != nil)
            }
        }
        if let file = form.files[Self.photoField], !file.data.isEmpty { photo = file.data }
        removesPhoto = form[Self.removePhotoField] != nil
    }

    /// The parts of a value of `property`, with what each is called on the form.
    static func parts(of property: PropertyID) -> [(key: String, name: String)] {
        switch property.type {
        case .multiAddress:
            [
                ("street", "Street"), ("extendedAddress", "Apartment or suite"), ("poBox", "PO box"), ("city", "City"),
                ("state", "State or region"), ("zip", "Postal code"), ("country", "Country"), ("countryCode", "Country code"),
            ]
        case .multiInstantMessage: [("service", "Service"), ("username", "User name")]
        case .multiSocialProfile: [("service", "Network"), ("username", "User name"), ("url", "Profile address"), ("identifier", "User ID")]
        default: [("value", capitalizedFirst(property.localizedName))]
        }
    }

    // MARK: Buttons

    /// Carries out a button other than Save (`move:phones.2.up`, `move:phones.0.down`,
    /// `add:addresses`); `false` for Save, or any other value.
    mutating func perform(_ action: String?) -> Bool {
        guard let action else { return false }
        if action.hasPrefix("add:") {
            let key = String(action.dropFirst(4))
            guard Self.rowProperties.contains(where: { $0.key == key }) else { return false }
            added[key, default: 0] += 1
            return true
        }
        guard action.hasPrefix("move:") else { return false }
        let pieces = action.dropFirst(5).split(separator: ".")
        guard pieces.count == 3, let index = Int(pieces[1]), var list = rows[String(pieces[0])], list.indices.contains(index) else { return false }
        let other = pieces[2] == "up" ? index - 1 : index + 1
        guard list.indices.contains(other) else { return true }
        list.swapAt(index, other)
        rows[String(pieces[0])] = list
        return true
    }

    // MARK: Changes

    /// The changes the form makes over `base` (the person as the form was shown; `nil` for a
    /// new person), one per property it holds. What the form does not show of a value (fields
    /// of an address another program wrote) is kept from `base`'s value of the same identifier.
    ///
    /// - Throws: ``Problems`` naming each field whose value the property refuses, with why.
    func edits(over base: Person?) throws(Problems) -> [PropertyEdit] {
        var edits: [PropertyEdit] = []
        var problems: [String: String] = [:]
        for property in Self.textProperties + [.birthday, .kind] {
            guard let text = texts[property.key] else { continue }
            let trimmed = text.allSatisfy(\.isWhitespace) ? "" : text
            do {
                edits.append(try PropertyEdit(key: property.key, text: trimmed))
            } catch {
                problems[property.key] = property == .birthday
                    ? "Write the date as YYYY-MM-DD, or --MM-DD without a year." : "This value cannot be saved."
            }
        }
        var stored: [String: JSONValue] = [:]
        if case .object(let fields)? = base?.editableJSON { stored = fields }
        for property in Self.rowProperties {
            guard let rows = rows[property.key] else { continue }
            var entries: [JSONValue] = []
            for (index, row) in rows.enumerated() where !row.removed && !row.isBlank {
                if property.type == .multiDate, (try? ContactDate(parsing: row.parts["value", default: ""].trimmed)) == nil {
                    problems["\(property.key).\(index)"] = "Write the date as YYYY-MM-DD, or --MM-DD without a year."
                    continue
                }
                entries.append(Self.entry(row, property: property, stored: stored[property.key]))
            }
            do {
                let text = entries.isEmpty ? "" : String(decoding: CanonicalJSON.encode(.array(entries)), as: UTF8.self)
                edits.append(try PropertyEdit(key: property.key, text: text))
            } catch {
                problems[property.key] = problems[property.key] ?? "These values cannot be saved."
            }
        }
        if let photo, WebService.imageType(of: photo) == nil {
            problems[Self.photoField] = "The photo must be a JPEG, PNG, GIF or WebP image."
        }
        guard problems.isEmpty else { throw Problems(byField: problems) }
        return edits
    }

    /// Carries out the form's changes on `person`: the edits, then the photo.
    ///
    /// - Throws: the errors of ``Person/apply(_:)``; the person is then unchanged.
    func apply(_ edits: [PropertyEdit], to person: Person) throws {
        try person.apply(edits)
        if let photo {
            person.setImageData(photo)
        } else if removesPhoto {
            person.removeImage()
        }
    }

    /// The fields a form could not be saved for.
    struct Problems: Error, Sendable {
        var byField: [String: String]
    }

    /// A row as a record-file entry, over the stored entry of the same identifier.
    private static func entry(_ row: Row, property: PropertyID, stored: JSONValue?) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        let id = Int32(row.id.trimmed)
        if let id, case .array(let entries)? = stored,
            case .object(let found)? = entries.first(where: { Self.identifier($0.object?["id"]) == "\(id)" })
        {
            fields = found
        }
        if let id { fields["id"] = .number(JSONNumber(Int(id))) }
        fields["label"] = row.label.trimmed.isEmpty ? nil : .string(row.label.trimmed)
        let parts = parts(of: property)
        if parts.count == 1, parts[0].key == "value" {
            fields["value"] = .string(row.parts["value", default: ""].trimmed)
        } else {
            var value = fields["value"]?.object ?? [:]
            for part in parts {
                let text = row.parts[part.key, default: ""].trimmed
                value[part.key] = text.isEmpty ? nil : .string(text)
            }
            fields["value"] = .object(value)
        }
        return .object(fields)
    }

    /// A record file's `"id"` of an entry as text; empty when there is none.
    private static func identifier(_ json: JSONValue?) -> String {
        if case .number(let number)? = json { return number.description }
        return ""
    }

    /// `text` with its first letter in upper case: "job title" gives "Job title".
    static func capitalizedFirst(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}

extension String {
    /// The text without white space or line breaks at either end.
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
