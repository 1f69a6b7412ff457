/// One content line of a vCard: `[group.]NAME[;PARAM=value…]:value`.
///
/// This is the syntax-level view: the reader fills it from text and the writer turns it back
/// into text, without interpreting what the property means.
///
/// ```swift
/// // item1.TEL;TYPE=cell,pref:+1 555 0100
/// let tel = VCardProperty(group: "item1", name: "TEL",
///                         parameters: [.type("cell", "pref")], rawValue: "+1 555 0100")
/// tel.types        // ["CELL", "PREF"]
/// tel.text         // "+1 555 0100"
/// ```
package struct VCardProperty: Sendable, Hashable {
    /// The group before the dot, such as `item1` in `item1.TEL`, as written; `nil` when there is none.
    /// Groups compare case-insensitively (see ``VCard/properties(inGroup:)``).
    var group: String? {
        didSet { writtenHead = nil }
    }
    /// The property name in upper case, for example `TEL` or `X-ABLABEL`.
    var name: String {
        didSet { writtenHead = nil }
    }
    /// The parameters in the order written.
    ///
    /// The reader consumes `CHARSET` and quoted-printable `ENCODING` parameters while it decodes
    /// the value, so they do not appear here; `ENCODING=b` / `BASE64` stay, because
    /// ``rawValue`` still holds base64 text.
    var parameters: [VCardParameter] {
        didSet { writtenHead = nil }
    }
    /// The group, name and parameters exactly as the input spelled them (`item1.tel;type=cell`),
    /// when the writer would spell them otherwise, so that a line written back comes out as it
    /// came in; `nil` for a property not read from text, or once its parts are changed.
    /// Not part of equality: it is spelling, not content.
    var writtenHead: String?
    /// The value as written, after unfolding and after quoted-printable and charset decoding,
    /// but before backslash escapes are removed. Base64 values have their white space removed.
    /// A line break decoded from quoted-printable is stored as the escape `\n`.
    var rawValue: String
    /// The 1-based line of the input where the property starts; 0 for a property not read from text.
    var line: Int
    /// The whole content line, unfolded, written instead of the parts: a line the reader could
    /// not split into name, parameters and value (no `:`, or a name with characters outside
    /// `[A-Za-z0-9-_]`; then ``name`` is empty and ``rawValue`` holds the line too), or a line
    /// a person's card had, written back exactly as it came. `nil` for a property written from
    /// its parts.
    var verbatim: String?

    /// Whether the writer writes ``verbatim`` instead of the parts.
    var isVerbatim: Bool { verbatim != nil }

    package static func == (lhs: VCardProperty, rhs: VCardProperty) -> Bool {
        lhs.group == rhs.group && lhs.name == rhs.name && lhs.parameters == rhs.parameters
            && lhs.rawValue == rhs.rawValue && lhs.line == rhs.line && lhs.verbatim == rhs.verbatim
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(group)
        hasher.combine(name)
        hasher.combine(parameters)
        hasher.combine(rawValue)
        hasher.combine(line)
        hasher.combine(verbatim)
    }

    /// Creates a property from a value that is already escaped; the name is stored in upper case.
    ///
    /// ```swift
    /// let note = VCardProperty(name: "note", rawValue: VCardText.escape("Gate code: 1234"))
    /// ```
    init(
        group: String? = nil,
        name: String,
        parameters: [VCardParameter] = [],
        rawValue: String,
        line: Int = 0
    ) {
        self.group = group
        self.name = VCardText.asciiUppercased(name)
        self.parameters = parameters
        self.rawValue = rawValue
        self.line = line
    }

    /// Creates a property holding `text`, escaped with ``VCardText/escape(_:)``.
    ///
    /// ```swift
    /// let fn = VCardProperty(name: "FN", text: "Smith, John")   // rawValue "Smith\\, John"
    /// ```
    init(group: String? = nil, name: String, parameters: [VCardParameter] = [], text: String) {
        self.init(group: group, name: name, parameters: parameters, rawValue: VCardText.escape(text))
    }

    /// Creates a structured property such as `N` or `ADR` with ``VCardText/structured(_:)``.
    ///
    /// ```swift
    /// let n = VCardProperty(name: "N", structured: [["Doe"], ["John"], [], [], []])   // "Doe;John;;;"
    /// ```
    init(group: String? = nil, name: String, parameters: [VCardParameter] = [], structured: [[String]]) {
        self.init(group: group, name: name, parameters: parameters, rawValue: VCardText.structured(structured))
    }

    /// Creates a property whose parts the reader has already normalized.
    init(uncheckedGroup group: String?, name: String, parameters: [VCardParameter], rawValue: String, line: Int) {
        self.group = group
        self.name = name
        self.parameters = parameters
        self.rawValue = rawValue
        self.line = line
    }

    /// A line kept as written (see ``isVerbatim``).
    ///
    /// ```swift
    /// let kept = VCardProperty(verbatimLine: "X-messaging/twitter-All:@someone", line: 12)
    /// VCardWriter.contentLine(kept)   // "X-messaging/twitter-All:@someone"
    /// ```
    init(verbatimLine: String, line: Int) {
        self.init(uncheckedGroup: nil, name: "", parameters: [], rawValue: verbatimLine, line: line)
        verbatim = verbatimLine
    }

    /// All values of all parameters with this name (matched case-insensitively), in order.
    ///
    /// ```swift
    /// // EMAIL;type=INTERNET;type=HOME:…
    /// email.parameter(named: "TYPE")   // ["INTERNET", "HOME"]
    /// ```
    package func parameter(named name: String) -> [String] {
        let wanted = VCardText.asciiUppercased(name)
        var values: [String] = []
        for parameter in parameters where parameter.name == wanted {
            values.append(contentsOf: parameter.values)
        }
        return values
    }

    /// Whether a parameter with this name is present (matched case-insensitively).
    package func hasParameter(named name: String) -> Bool {
        let wanted = VCardText.asciiUppercased(name)
        return parameters.contains { $0.name == wanted }
    }

    /// Every `TYPE` value in upper case, including values written inside one quoted string
    /// (`TYPE="work,voice"`) and vCard 2.1 bare parameters such as `CELL` in `TEL;CELL;HOME:…`.
    /// Bare encoding words (`BASE64`, `QUOTED-PRINTABLE`, `8BIT`, `7BIT`) are not types.
    var types: Set<String> {
        var result: Set<String> = []
        for parameter in parameters {
            if parameter.name == "TYPE" {
                for value in parameter.values {
                    for item in value.split(separator: ",") {
                        let word = VCardText.trimmingWhitespace(item)
                        if !word.isEmpty { result.insert(VCardText.asciiUppercased(String(word))) }
                    }
                }
            } else if parameter.values.isEmpty, !Self.bareEncodingWords.contains(parameter.name) {
                result.insert(parameter.name)
            }
        }
        return result
    }

    /// Whether the property is marked preferred: a `PREF` type (vCard 2.1 and 3.0) or a
    /// `PREF` parameter (vCard 4.0, `PREF=1`).
    var isPreferred: Bool {
        hasParameter(named: "PREF") || types.contains("PREF")
    }

    /// Whether ``rawValue`` is base64 text (`ENCODING=b`, `ENCODING=BASE64` or a bare `BASE64`).
    var isBase64Encoded: Bool {
        parameters.contains { parameter in
            if parameter.name == "ENCODING" {
                return parameter.values.contains { value in
                    let upper = VCardText.asciiUppercased(value)
                    return upper == "B" || upper == "BASE64"
                }
            }
            return parameter.values.isEmpty && parameter.name == "BASE64"
        }
    }

    /// The value with backslash escapes removed (``VCardText/unescape(_:)``).
    package var text: String {
        VCardText.unescape(rawValue)
    }

    /// The value split on unescaped `;`, each part unescaped; for structured values like `N` and `ADR`.
    var components: [String] {
        VCardText.components(rawValue)
    }

    /// The value split on unescaped `,`, each part unescaped; for lists like `NICKNAME` and `CATEGORIES`.
    var listValues: [String] {
        VCardText.listValues(rawValue)
    }

    /// The value split on unescaped `;` and each component on unescaped `,`, all unescaped.
    var structuredValues: [[String]] {
        VCardText.structuredValues(rawValue)
    }

    private static let bareEncodingWords: Set<String> = ["BASE64", "QUOTED-PRINTABLE", "8BIT", "7BIT"]
}
