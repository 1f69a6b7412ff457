/// A field an import from another format had no place for, as the person keeps it:
/// `X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Shoe size":38` (see
/// ``CardBuilder/addKept(format:field:value:line:)``).
///
/// ```swift
/// for field in KeptField.fields(of: person, format: "csv") {
///     print(field.name, field.value)   // "Shoe size" "38"
/// }
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
        VCardExporter.keptProperties(VCardRecordFields.lines(of: person.state)).compactMap { property in
            guard property.name == propertyName,
                let kept = property.parameter(named: "X-FORMAT").first?.lowercased(), kept == format,
                let name = property.parameter(named: "X-NAME").first, !name.isEmpty
            else { return nil }
            return KeptField(format: kept, name: name, value: property.text)
        }
    }
}
