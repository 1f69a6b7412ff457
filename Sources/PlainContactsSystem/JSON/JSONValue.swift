/// A JSON document or a part of one, as read from or written to the store's files.
///
/// Numbers keep their literal text (see ``JSONNumber``) so that a file rewritten without
/// changes keeps its bytes. Objects are unordered; ``CanonicalJSON`` writes their keys in
/// UTF-8 byte order.
///
/// Object keys follow Swift `String` equality, under which canonically equivalent spellings
/// (such as a precomposed `é` and `e` followed by a combining accent) are the same key.
///
/// ```swift
/// let value = try JSONParser.parse(Data(#"{"name": "Ada", "tags": [1, 2]}"#.utf8))
/// value["name"]?.string         // "Ada"
/// value["tags"]?.array?.count   // 2
/// value["missing"]              // nil
/// ```
package enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its literal text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array of values, in order.
    case array([JSONValue])
    /// An object: a set of uniquely named members.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The string, when this value is a string; otherwise `nil`.
    package var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, when this value is a number; otherwise `nil`.
    package var number: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The integer, when this value is a number written as an integer that fits in `Int`
    /// (see ``JSONNumber/int``); otherwise `nil`.
    package var int: Int? {
        number?.int
    }

    /// The number as a `Double`, when this value is a finite number (see
    /// ``JSONNumber/double``); otherwise `nil`.
    package var double: Double? {
        number?.double
    }

    /// The Boolean, when this value is `true` or `false`; otherwise `nil`.
    package var bool: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements, when this value is an array; otherwise `nil`.
    package var array: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The members, when this value is an object; otherwise `nil`.
    package var object: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Whether this value is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key`, when this value is an object that has one; otherwise `nil`.
    ///
    /// A member whose value is `null` gives `.null`, not `nil`.
    package subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
