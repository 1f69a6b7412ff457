/// A field an import from another format had no place for, as the person or group keeps it:
/// `X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Shoe size":38` (see
/// ``CardBuilder/addKept(format:field:value:line:)``). A group keeps its own the same way,
/// such as an LDIF list's `description` or the display name of a mutt alias's RFC 5322 group.
///
/// ```swift
/// for field in KeptField.fields(of: person, format: "csv") {
///     print(field.name, field.value)   // "Shoe size" "38"
/// }
/// KeptField.fields(of: group, format: "ldif")   // [KeptField(format: "ldif", name: "description", …)]
/// ```
struct KeptField: Hashable {
    /// The format it came from: `csv`, `ldif`, `abook`, `mutt`.
    var format: String
    /// The column, attribute or key it had there.
    var name: String
    /// Its value, unescaped.
    var value: String

    /// The name of the kept property.
    static let propertyName = "X-IMPORTED-FIELD"

    /// The fields a person keeps from imports of `format`, in order, read from the person's
    /// kept lines as export reads them.
    static func fields(of person: Person, format: String) -> [KeptField] {
        fields(inLines: VCardRecordFields.lines(of: person.state), format: format)
    }

    /// The fields a group keeps from imports of `format`, in order.
    static func fields(of group: Group, format: String) -> [KeptField] {
        fields(inLines: VCardRecordFields.lines(of: group.state), format: format)
    }

    /// The kept content line of this field, as ``CardBuilder/addKept(format:field:value:line:)``
    /// writes it.
    var contentLine: String {
        let name = name.replacing("\"", with: "'").filter { !$0.isNewline && !($0.asciiValue.map { $0 < 32 } ?? false) }
        return Self.propertyName + ";X-FORMAT=\(format);X-NAME=\"\(name)\":" + VCardText.escape(value)
    }

    /// The fields of `format` among kept content `lines`.
    private static func fields(inLines lines: [String], format: String) -> [KeptField] {
        VCardExporter.keptProperties(lines).compactMap { property in
            guard property.name == propertyName,
                let kept = property.parameter(named: "X-FORMAT").first?.lowercased(), kept == format,
                let name = property.parameter(named: "X-NAME").first, !name.isEmpty
            else { return nil }
            return KeptField(format: kept, name: name, value: property.text)
        }
    }
}
