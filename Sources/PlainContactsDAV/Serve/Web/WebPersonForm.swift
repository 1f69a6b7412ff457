#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// The form that edits or adds a person on the web pages: its fields, what a person fills them
/// with, and the changes (``PropertyEdit``, the language of `contacts set`) a sent form makes.
///
/// Text properties are one field each, named by their key in the record file (`firstName`,
/// `note`…), the birthday one field (`YYYY-MM-DD` or `--MM-DD`). Phones, emails, web addresses
/// and related names are rows of a label and a value (`phones.0.label`, `phones.0.value`), each
/// row keeping its value's identifier (`phones.0.id`); an emptied value removes its row, and
/// blank rows at the end add values. The other properties (addresses, dates, accounts,
/// profiles, the photo) are left as they are.
///
/// ```swift
/// let form = WebPersonForm(person)
/// let edits = try WebPersonForm(sent: WebForm(body)).edits()   // [firstName=…, phones=[…]]
/// ```
struct WebPersonForm: Sendable {
    /// The text properties, in the person view's order.
    static let textProperties = PropertyID.personProperties.filter { $0.type == .string && !$0.isReadOnly }
    /// The multi-value properties of text edited as rows.
    static let rowProperties: [PropertyID] = [.phones, .emails, .urls, .relatedNames]
    /// Blank rows offered below a property's values, to add some.
    static let blankRows = 2

    /// One row of a multi-value.
    struct Row: Sendable, Hashable {
        var id: String = ""
        var label: String = ""
        var value: String = ""
    }

    /// The text of each text property and of `birthday`, by key.
    var texts: [String: String] = [:]
    /// The rows of each row property, by key.
    var rows: [String: [Row]] = [:]
    /// The problem with each field, by key, after ``edits()`` failed.
    var problems: [String: String] = [:]

    /// An empty form, for a new person.
    init() {}

    /// The form filled with what `person` holds.
    init(_ person: Person) {
        for property in Self.textProperties {
            if case .string(let text)? = person.value(for: property) { texts[property.key] = text }
        }
        texts[PropertyID.birthday.key] = person.birthday?.description
        for property in Self.rowProperties {
            if case .multiString(let values)? = person.value(for: property) {
                rows[property.key] = values.entries.map { entry in
                    Row(id: entry.identifier.description, label: entry.label?.rawValue ?? "", value: entry.value)
                }
            }
        }
    }

    /// The form as a browser sent it.
    init(sent form: WebForm) {
        for property in Self.textProperties + [.birthday] {
            if let text = form[property.key] { texts[property.key] = text }
        }
        for property in Self.rowProperties {
            var found: [Row] = []
            var index = 0
            while form["\(property.key).\(index).value"] != nil || form["\(property.key).\(index).label"] != nil {
                let prefix = "\(property.key).\(index)."
                found.append(Row(id: form[prefix + "id"] ?? "", label: form[prefix + "label"] ?? "", value: form[prefix + "value"] ?? ""))
                index += 1
            }
            rows[property.key] = found
        }
    }

    /// The changes the form makes, one per property it holds.
    ///
    /// - Throws: ``Problems`` naming each field whose value the property refuses, with why.
    func edits() throws(Problems) -> [PropertyEdit] {
        var edits: [PropertyEdit] = []
        var problems: [String: String] = [:]
        for property in Self.textProperties + [.birthday] {
            guard let text = texts[property.key] else { continue }
            let trimmed = text.allSatisfy(\.isWhitespace) ? "" : text
            do {
                edits.append(try PropertyEdit(key: property.key, text: trimmed))
            } catch {
                problems[property.key] = property == .birthday
                    ? "Write the date as YYYY-MM-DD, or --MM-DD without a year." : "\(error)"
            }
        }
        for property in Self.rowProperties {
            guard let rows = rows[property.key] else { continue }
            let kept = rows.filter { !$0.value.allSatisfy(\.isWhitespace) }
            do {
                edits.append(try PropertyEdit(key: property.key, text: kept.isEmpty ? "" : try Self.json(kept)))
            } catch {
                problems[property.key] = "\(error)"
            }
        }
        guard problems.isEmpty else { throw Problems(byField: problems) }
        return edits
    }

    /// The fields a form could not be saved for.
    struct Problems: Error, Sendable {
        var byField: [String: String]
    }

    /// Rows as the JSON array `contacts set` takes for a multi-value.
    private static func json(_ rows: [Row]) throws -> String {
        struct Entry: Encodable {
            var id: Int32?
            var label: String?
            var value: String
        }
        let entries = rows.map { row in
            Entry(id: Int32(row.id), label: row.label.isEmpty ? nil : row.label, value: row.value.trimmingCharacters(in: .whitespaces))
        }
        return String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)
    }

    // MARK: HTML

    /// The form's fields as HTML, each labelled, each problem beside its field.
    func fieldsHTML() -> String {
        var html = ""
        for property in Self.textProperties + [.birthday] {
            let key = property.key
            let value = WebHTML.escaped(texts[key] ?? "")
            html += "<label for=\"\(key)\">\(WebHTML.escaped(property.localizedName.capitalizedFirst))</label>\n"
            // The birthday's format is said in a hint beside the field, which stays in view.
            let hinted = property == .birthday
            let descriptions = (hinted ? ["\(key)-hint"] : []) + (problems[key] != nil ? ["\(key)-problem"] : [])
            var attributes = problems[key] != nil ? " aria-invalid=\"true\"" : ""
            if !descriptions.isEmpty { attributes += " aria-describedby=\"\(descriptions.joined(separator: " "))\"" }
            if property == .note {
                html += "<textarea id=\"\(key)\" name=\"\(key)\" rows=\"4\"\(attributes)>\(value)</textarea>\n"
            } else {
                html += "<input type=\"text\" id=\"\(key)\" name=\"\(key)\" value=\"\(value)\"\(attributes)>\n"
            }
            if hinted { html += "<p class=\"muted\" id=\"\(key)-hint\">YYYY-MM-DD, or --MM-DD without a year</p>\n" }
            html += problemHTML(key)
        }
        for property in Self.rowProperties {
            let key = property.key
            let name = WebHTML.escaped(property.localizedName.capitalizedFirst)
            html += "<fieldset class=\"rows\"><legend>\(name)</legend>\n"
            let rows = (self.rows[key] ?? []) + Array(repeating: Row(), count: Self.blankRows)
            for (index, row) in rows.enumerated() {
                let field = "\(key).\(index)"
                html += "<div class=\"row\"><input type=\"hidden\" name=\"\(field).id\" value=\"\(WebHTML.escaped(row.id))\">"
                html += "<label class=\"label\"><span>Label</span>"
                html += "<input type=\"text\" name=\"\(field).label\" value=\"\(WebHTML.escaped(row.label))\" list=\"labels\"></label>"
                html += "<label class=\"value\"><span>\(name) \(index + 1)</span>"
                html += "<input \(Self.inputKind(property)) name=\"\(field).value\" value=\"\(WebHTML.escaped(row.value))\"></label></div>\n"
            }
            html += problemHTML(key) + "</fieldset>\n"
        }
        html += "<datalist id=\"labels\">" + ["mobile", "home", "work", "other", "main", "iPhone"].map { "<option value=\"\($0)\">" }.joined()
        return html + "</datalist>\n"
    }

    private func problemHTML(_ key: String) -> String {
        guard let problem = problems[key] else { return "" }
        return "<p class=\"error\" id=\"\(key)-problem\">\(WebHTML.escaped(problem))</p>\n"
    }

    /// The input's type and keyboard: text everywhere (the browser's own checks of emails and
    /// addresses would refuse values the store keeps), with a phone's, an email's or an
    /// address's keyboard.
    private static func inputKind(_ property: PropertyID) -> String {
        switch property {
        case .phones: "type=\"tel\""
        case .emails: "type=\"text\" inputmode=\"email\" autocapitalize=\"none\""
        case .urls: "type=\"text\" inputmode=\"url\" autocapitalize=\"none\""
        default: "type=\"text\""
        }
    }
}

extension String {
    /// The text with its first letter in upper case: "job title" gives "Job title".
    fileprivate var capitalizedFirst: String {
        prefix(1).uppercased() + dropFirst()
    }
}
