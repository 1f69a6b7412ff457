/// One value of a contact as another program's export holds it (a CSV cell, an LDIF attribute,
/// an abook key, a piece of a mutt or Eudora alias), read by the import fidelity measure
/// (`contacts-bench --import-fidelity`) without the library's importers.
///
/// ```swift
/// let field = SourceField(line: 2, column: "Home Phone", value: "+1 555 0100", kind: .phone, label: .home)
/// ```
struct SourceField: Equatable {
    /// The 1-based line of the original file where the value (or its record) is.
    var line: Int
    /// The column, attribute, key or tag that held it, as written.
    var column: String
    /// The value, as written once the file's own quoting and encoding are undone.
    var value: String
    /// Where an import must put it.
    var kind: FieldKind
    /// The type the source gives the value (home, work, mobile…), when it gives one.
    var label: ExpectedLabel?
}
