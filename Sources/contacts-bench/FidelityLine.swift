import Foundation

/// One unfolded vCard content line, split into its parts for the fidelity comparison
/// (`contacts-bench --fidelity`).
///
/// Two lines are *equivalent* when their ``key``s are equal: the property name and the
/// parameters compared case-insensitively, the parameters as a set with `TYPE` lists split and
/// 2.1 bare parameters read as `TYPE`, the value compared after vCard unescaping, the item group
/// ignored. Transfer encodings are undone so that a line reads the same in 2.1, 3.0 and 4.0:
/// a quoted-printable value is decoded in its `CHARSET`, base64 (`ENCODING=b`, `BASE64`) and
/// `data:` URIs compare by their bytes (the URI's media subtype as a `TYPE`), and `TYPE=pref`
/// is `PREF=1`.
///
/// ```swift
/// let line = FidelityLine("item1.TEL;type=CELL,pref:+1 555")
/// line.name  // "TEL"
/// line.key == FidelityLine("TEL;PREF=1;TYPE=cell:+1 555").key  // true
/// ```
struct FidelityLine: Equatable {
    /// The line as it was, unfolded.
    var text: String
    /// The property name, uppercased, without its item group.
    var name: String
    /// The text before the value: item group, name and parameters as written.
    var head: String
    /// What equivalent lines share.
    var key: Key

    /// The comparable form of a line.
    struct Key: Hashable {
        /// The property name, uppercased.
        var name: String
        /// Lowercased `name=value` pairs, one per `TYPE` value.
        var parameters: Set<String>
        /// The unescaped, decoded value.
        var value: String
    }

    /// Parameters that say only how the value is encoded; dropped once the value is decoded.
    private static let encodingParameters: Set<String> = ["encoding", "charset"]
    /// 2.1 bare parameters that name an encoding rather than a type.
    private static let bareEncodings: Set<String> = ["quoted-printable", "base64", "b", "8bit", "7bit"]
    /// Properties whose value has `;`-separated components, where trailing empty ones are noise.
    private static let structured: Set<String> = ["N", "ADR", "ORG"]

    /// Splits an unfolded content line; a line without `:` is all name.
    init(_ text: String) {
        self.text = text
        let colon = Self.firstUnquoted(":", in: Substring(text)) ?? text.firstIndex(of: ":")
        head = String(text[..<(colon ?? text.endIndex)])
        let rawValue = colon.map { String(text[text.index(after: $0)...]) } ?? ""
        var segments = Self.splitUnquoted(";", Substring(head))
        let qualified = segments.isEmpty ? "" : segments.removeFirst()
        let bareName = qualified.firstIndex(of: ".").map { qualified[qualified.index(after: $0)...] } ?? qualified[...]
        name = bareName.uppercased()
        var parameters = Self.parameters(segments)
        let value = Self.decodedValue(rawValue, parameters: &parameters, name: name)
        key = Key(name: name, parameters: parameters, value: value)
    }

    /// The head with the values of parameters that may hold personal data (`LABEL`,
    /// `SORT-AS`…) replaced by `…`, to print instead of the line.
    var redactedHead: String {
        let shown: Set<String> = [
            "TYPE", "VALUE", "ENCODING", "CHARSET", "PREF", "MEDIATYPE", "LANGUAGE", "CALSCALE", "X-SERVICE-TYPE",
        ]
        return Self.splitUnquoted(";", Substring(head)).enumerated().map { index, segment in
            guard index > 0, let equals = segment.firstIndex(of: "=") else { return segment }
            let parameter = segment[..<equals]
            return shown.contains(parameter.uppercased()) ? segment : parameter + "=…"
        }.joined(separator: ";")
    }

    // MARK: Parameters

    private static func parameters(_ segments: [String]) -> Set<String> {
        var result: Set<String> = []
        for segment in segments where !segment.isEmpty {
            guard let equals = segment.firstIndex(of: "=") else {
                let bare = segment.lowercased()
                result.insert(bareEncodings.contains(bare) ? "encoding=\(bare)" : typeParameter(bare))
                continue
            }
            let name = segment[..<equals].lowercased()
            let value = unquoted(segment[segment.index(after: equals)...]).lowercased()
            let values = name == "type" ? splitUnquoted(",", Substring(value)) : [value]
            for item in values where !item.isEmpty {
                result.insert(name == "type" ? typeParameter(unquoted(Substring(item))) : "\(name)=\(item)")
            }
        }
        return result
    }

    /// `type=value`, except `TYPE=pref`, which is 4.0's `PREF=1`.
    private static func typeParameter(_ value: String) -> String {
        value == "pref" ? "pref=1" : "type=\(value)"
    }

    private static func unquoted(_ text: Substring) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : String(text)
    }

    // MARK: Values

    /// The value with its transfer encoding undone and vCard escapes resolved; removes the
    /// encoding parameters it undid from `parameters`.
    private static func decodedValue(_ raw: String, parameters: inout Set<String>, name: String) -> String {
        let encoding = parameters.first { $0.hasPrefix("encoding=") }.map { String($0.dropFirst("encoding=".count)) }
        let charset = parameters.first { $0.hasPrefix("charset=") }.map { String($0.dropFirst("charset=".count)) }
        parameters = parameters.filter { !encodingParameters.contains(String($0.prefix { $0 != "=" })) }
        if encoding == "b" || encoding == "base64" {
            return bytesValue(Data(base64Encoded: raw.filter { !$0.isWhitespace }, options: .ignoreUnknownCharacters))
        }
        if raw.count > 5, raw.prefix(5).lowercased() == "data:", let comma = raw.firstIndex(of: ","),
            raw[..<comma].lowercased().hasSuffix(";base64")
        {
            let mediaType = raw[raw.index(raw.startIndex, offsetBy: 5)..<comma].dropLast(";base64".count)
            if let slash = mediaType.firstIndex(of: "/") {
                parameters.insert("type=\(mediaType[mediaType.index(after: slash)...].lowercased())")
            }
            parameters.remove("value=uri")
            return bytesValue(Data(base64Encoded: String(raw[raw.index(after: comma)...]), options: .ignoreUnknownCharacters))
        }
        var text = encoding == "quoted-printable" ? QuotedPrintableText.decode(raw, charset: charset) : raw
        text = unescaped(text).replacingOccurrences(of: "\r\n", with: "\n")
        if structured.contains(name) {
            while text.hasSuffix(";") { text.removeLast() }
        }
        return text
    }

    private static func bytesValue(_ data: Data?) -> String {
        data.map { "bytes:" + $0.base64EncodedString() } ?? "invalid base64"
    }

    /// Resolves `\\`, `\,`, `\;`, `\:`, `\"`, `\n` and `\N`; any other backslash stays.
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "n", "N": result.append("\n")
                case "\\", ",", ";", ":", "\"": result.append(character)
                default: result += "\\" + String(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return result
    }

    // MARK: Splitting

    /// The first `separator` outside double quotes.
    static func firstUnquoted(_ separator: Character, in text: Substring) -> String.Index? {
        var quoted = false
        for index in text.indices {
            if text[index] == "\"" { quoted.toggle() }
            if text[index] == separator, !quoted { return index }
        }
        return nil
    }

    /// `text` cut at every `separator` outside double quotes.
    static func splitUnquoted(_ separator: Character, _ text: Substring) -> [String] {
        var parts: [String] = []
        var rest = text
        while let index = firstUnquoted(separator, in: rest) {
            parts.append(String(rest[..<index]))
            rest = rest[rest.index(after: index)...]
        }
        parts.append(String(rest))
        return parts
    }
}
