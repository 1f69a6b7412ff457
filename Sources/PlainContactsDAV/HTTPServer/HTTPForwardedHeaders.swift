/// Reads the hops that `X-Forwarded-For` and `Forwarded` (RFC 7239) name, from the client to
/// the last proxy, across every field line of the header in order.
///
/// A hop that cannot be read is `nil`: whoever reads the hops from the right decides what it
/// means once it reaches it. Only a `Forwarded` value that breaks the element syntax itself
/// (an unclosed quote, a pair without `=`, `for` twice in one element) makes the whole header
/// unreadable, since its elements can then not be told apart.
///
/// ```swift
/// HTTPForwardedHeaders.forwardedHops([#"for=192.0.2.60;proto=https, for="[2001:db8::1]:4711""#])
/// // [.address("192.0.2.60"), .address("2001:db8::1")]
/// HTTPForwardedHeaders.xForwardedForHops(["203.0.113.7, 10.0.0.2"])
/// // [.address("203.0.113.7"), .address("10.0.0.2")]
/// ```
enum HTTPForwardedHeaders {
    /// One `name=value` pair of a `Forwarded` element, its name in lower case.
    private typealias Pair = (name: String, value: String)

    /// The hops of `X-Forwarded-For` field values: comma-separated nodes (an address, with or
    /// without a port, `unknown`, or an obfuscated identifier); empty elements are skipped.
    static func xForwardedForHops(_ values: [String]) -> [HTTPForwardedNode?] {
        values.flatMap { value in
            value.split(separator: ",").compactMap { element -> HTTPForwardedNode?? in
                var node = element.drop { $0 == " " || $0 == "\t" }
                while let last = node.last, last == " " || last == "\t" { node = node.dropLast() }
                if node.isEmpty { return nil }
                if node.count >= 2, node.hasPrefix("\""), node.hasSuffix("\"") { node = node.dropFirst().dropLast() }
                return .some(HTTPForwardedNode(node))
            }
        }
    }

    /// The `for=` hops of `Forwarded` field values, one per element: `.unknown` for an element
    /// without `for=`, `nil` for one whose `for=` is not a node; `nil` altogether when a value
    /// breaks the element syntax.
    static func forwardedHops(_ values: [String]) -> [HTTPForwardedNode?]? {
        var hops: [HTTPForwardedNode?] = []
        for value in values {
            guard let elements = elements(of: value) else { return nil }
            for pairs in elements {
                let fors = pairs.filter { $0.name == "for" }
                guard fors.count <= 1 else { return nil }
                hops.append(fors.first.map { HTTPForwardedNode($0.value) } ?? .unknown)
            }
        }
        return hops
    }

    /// The elements of one `Forwarded` field value, each a list of pairs, empty elements left
    /// out; quoted values unquoted. Spaces and tabs are allowed around pairs only.
    private static func elements(of value: String) -> [[Pair]]? {
        var elements: [[Pair]] = []
        var pairs: [Pair] = []
        var name = ""
        var text = ""
        var inValue = false
        var quoted = false
        var escaped = false
        var closedQuote = false
        var spaced = false

        func endPair() -> Bool {
            defer { (name, text, inValue, closedQuote, spaced) = ("", "", false, false, false) }
            guard inValue else { return name.isEmpty }
            guard HTTPSyntax.isToken(Array(name.utf8)) else { return false }
            pairs.append((name.lowercased(), text))
            return true
        }

        for character in value {
            if quoted {
                if escaped {
                    text.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                    closedQuote = true
                } else {
                    text.append(character)
                }
                continue
            }
            switch character {
            case ";", ",":
                guard endPair() else { return nil }
                if character == "," {
                    if !pairs.isEmpty { elements.append(pairs) }
                    pairs = []
                }
            case "=":
                guard !inValue, !spaced else { return nil }
                inValue = true
            case "\"":
                guard inValue, text.isEmpty, !closedQuote, !spaced else { return nil }
                quoted = true
            case " ", "\t":
                spaced = inValue || !name.isEmpty
            default:
                guard !closedQuote, !spaced else { return nil }
                if inValue { text.append(character) } else { name.append(character) }
            }
        }
        guard !quoted, endPair() else { return nil }
        if !pairs.isEmpty { elements.append(pairs) }
        return elements
    }
}
