/// One parameter of a vCard property, such as `TYPE=home,pref` in `TEL;TYPE=home,pref:…`.
///
/// The name is kept in upper case; the values keep their spelling, with surrounding double
/// quotes removed and RFC 6868 caret escapes (`^n`, `^^`, `^'`) decoded. A parameter without
/// `=`, as vCard 2.1 writes `TEL;CELL:…`, has the bare word as its name and no values.
///
/// ```swift
/// let type = VCardParameter(name: "type", values: ["home", "pref"])
/// // type.name == "TYPE"
/// ```
struct VCardParameter: Sendable, Hashable {
    /// The parameter name in upper case, for example `TYPE`, `CHARSET` or `X-SERVICE-TYPE`.
    var name: String
    /// The values in the order written; comma-separated values become separate elements.
    var values: [String]

    /// Creates a parameter; the name is stored in upper case.
    init(name: String, values: [String] = []) {
        self.name = VCardText.asciiUppercased(name)
        self.values = values
    }

    /// Creates a parameter whose name is already upper case.
    init(uppercasedName: String, values: [String]) {
        self.name = uppercasedName
        self.values = values
    }

    /// A `TYPE` parameter with the given values, for example `VCardParameter.type("work", "voice")`.
    static func type(_ values: String...) -> VCardParameter {
        VCardParameter(uppercasedName: "TYPE", values: values)
    }
}
