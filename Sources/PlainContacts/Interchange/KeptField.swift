/// A field an import from another format had no place for, as the person keeps it:
/// `X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Shoe size":38` (see
/// ``CardBuilder/addKept(format:field:value:line:)``).
///
/// ```swift
/// let field = KeptField(line: #"X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Shoe size":38"#)
/// field?.name    // "Shoe size"
/// field?.value   // "38"
/// ```
struct KeptField: Hashable {
    /// The format it came from: `csv`, `ldif`, `abook`, `mutt`.
    var format: String
    /// The column, attribute or key it had there.
    var name: String
    /// Its value, unescaped.
    var value: String

    private static let prefix = "X-IMPORTED-FIELD;"

    /// Reads a kept content line; `nil` for any other line.
    init?(line: String) {
        guard line.uppercased().hasPrefix(Self.prefix) else { return nil }
        var rest = line.dropFirst(Self.prefix.count)
        var format = ""
        var name = ""
        // Parameters up to the first ':' outside quotes.
        while !rest.isEmpty, rest.first != ":" {
            let end = rest.firstIndex { $0 == "=" } ?? rest.endIndex
            let key = rest[..<end].uppercased()
            rest = rest[end...].dropFirst()
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                let close = rest.firstIndex(of: "\"") ?? rest.endIndex
                value = String(rest[..<close])
                rest = rest[close...].dropFirst()
            } else {
                let close = rest.firstIndex { $0 == ";" || $0 == ":" } ?? rest.endIndex
                value = String(rest[..<close])
                rest = rest[close...]
            }
            if key == "X-FORMAT" { format = value.lowercased() }
            if key == "X-NAME" { name = value }
            if rest.first == ";" { rest = rest.dropFirst() }
        }
        guard rest.first == ":", !name.isEmpty else { return nil }
        self.format = format
        self.name = name
        self.value = VCardText.unescape(rest.dropFirst())
    }

    /// The fields a person keeps from imports of `format`, in order.
    static func fields(of person: Person, format: String) -> [KeptField] {
        VCardRecordFields.lines(of: person.state).compactMap(KeptField.init(line:)).filter { $0.format == format }
    }
}
