/// An ordered list of header fields that allows repeats: what a request arrived with, or what a
/// response is to be written with. Names are looked up without regard to case.
///
/// ```swift
/// var headers: HTTPHeaderFields = ["Content-Type": "text/plain"]
/// headers.append("WWW-Authenticate", "Basic realm=\"contacts\"")
/// headers.append("WWW-Authenticate", "Bearer")
/// headers["content-type"]            // "text/plain"
/// headers.values(for: "www-authenticate").count   // 2
/// ```
struct HTTPHeaderFields: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One header field: a name as it was written and its value.
    struct Field: Sendable, Hashable {
        /// The name, spelled as the sender wrote it.
        var name: String
        /// The value, without surrounding spaces or tabs.
        var value: String

        /// Creates a field.
        init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    private(set) var fields: [Field]

    /// Creates an empty list.
    init() {
        fields = []
    }

    /// Creates a list of the given name and value pairs, in order.
    init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a list from a literal; repeated names are kept, in order.
    init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    var startIndex: Int { fields.startIndex }
    var endIndex: Int { fields.endIndex }

    /// The field at a position.
    subscript(position: Int) -> Field { fields[position] }

    /// The first value of the named field, the name compared without case; setting replaces
    /// every field of that name by one (at the first one's place), or removes them for `nil`.
    subscript(name: String) -> String? {
        get { fields.first { Self.matches($0.name, name) }?.value }
        set {
            guard let newValue else {
                remove(name)
                return
            }
            if let first = fields.firstIndex(where: { Self.matches($0.name, name) }) {
                fields[first].value = newValue
                var position = fields.index(after: first)
                while position < fields.endIndex {
                    if Self.matches(fields[position].name, name) {
                        fields.remove(at: position)
                    } else {
                        position += 1
                    }
                }
            } else {
                append(name, newValue)
            }
        }
    }

    /// Every value of the named field, in order, the name compared without case.
    func values(for name: String) -> [String] {
        fields.filter { Self.matches($0.name, name) }.map(\.value)
    }

    /// Whether a field of that name is present, the name compared without case.
    func contains(_ name: String) -> Bool {
        fields.contains { Self.matches($0.name, name) }
    }

    /// Whether the named field's comma-separated values hold `token`, compared without case:
    /// `Connection: keep-alive, Upgrade` holds `upgrade`.
    func containsToken(_ token: String, in name: String) -> Bool {
        values(for: name).contains { value in
            value.split(separator: ",").contains { element in
                Self.matches(HTTPSyntax.trimmed(element), token)
            }
        }
    }

    /// Adds a field at the end, after any of the same name.
    mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field of that name, the name compared without case.
    mutating func remove(_ name: String) {
        fields.removeAll { Self.matches($0.name, name) }
    }

    /// Whether two field names are the same, ignoring ASCII case.
    static func matches(_ first: some StringProtocol, _ second: some StringProtocol) -> Bool {
        let a = first.utf8
        let b = second.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { HTTPSyntax.lowercased($0) == HTTPSyntax.lowercased($1) }
    }
}
