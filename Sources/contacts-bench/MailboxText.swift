import Foundation

/// The addresses of a mail alias (`Katie Bell <k@x.example>, "Lee, J" <l@x.example>`,
/// `k@x.example (Katie Bell)`, `friends: a@x, b@x;`), read for the import fidelity measure's
/// mutt and Eudora readers.
///
/// ```swift
/// let list = MailboxText.parse("Katie Bell <k@x.example>")
/// list.mailboxes[0].name   // "Katie Bell"
/// ```
struct MailboxText {
    /// One address of the list, or a word naming another alias.
    struct Mailbox: Equatable {
        /// The display name or comment, decoded.
        var name: String?
        /// The address; `nil` for a word without `@`, which names another alias.
        var address: String?
        /// The word itself when it names another alias.
        var alias: String?
    }

    /// The display name of an RFC 5322 group (`friends: a@x, b@x;`), if the list is one.
    var groupName: String?
    /// The addresses, in order.
    var mailboxes: [Mailbox] = []

    /// Reads an address list.
    static func parse(_ text: String) -> MailboxText {
        var list = MailboxText()
        var body = text.trimmingCharacters(in: .whitespaces)
        if let colon = unquotedIndex(of: ":", in: body), !body[..<colon].contains("@"), !body[..<colon].contains("<") {
            list.groupName = decoded(String(body[..<colon]).trimmingCharacters(in: .whitespaces))
            body = String(body[body.index(after: colon)...]).trimmingCharacters(in: CharacterSet(charactersIn: " ;"))
        }
        list.mailboxes = split(body).compactMap(mailbox)
        return list
    }

    /// The pieces of a list between commas outside quotes, angle brackets and parentheses.
    private static func split(_ text: String) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var quoted = false
        var depth = 0
        for character in text {
            switch character {
            case "\"": quoted.toggle()
            case "<", "(": if !quoted { depth += 1 }
            case ">", ")": if !quoted { depth -= 1 }
            case "," where !quoted && depth == 0:
                pieces.append(piece)
                piece = ""
                continue
            default: break
            }
            piece.append(character)
        }
        pieces.append(piece)
        return pieces.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// One piece of a list: `Name <address>`, `address (Comment)`, an address, or an alias key.
    private static func mailbox(_ text: String) -> Mailbox? {
        if let open = text.lastIndex(of: "<"), let close = text.lastIndex(of: ">"), open < close {
            let name = unquoted(String(text[..<open]).trimmingCharacters(in: .whitespaces))
            return Mailbox(name: name.isEmpty ? nil : decoded(name), address: String(text[text.index(after: open)..<close]))
        }
        if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            let comment = String(text[text.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
            let address = String(text[..<open]).trimmingCharacters(in: .whitespaces)
            return Mailbox(name: comment.isEmpty ? nil : decoded(comment), address: address)
        }
        if text.contains("@") { return Mailbox(name: nil, address: text) }
        return Mailbox(name: nil, address: nil, alias: text)
    }

    /// `text` without the double quotes around it.
    private static func unquoted(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }

    /// The first `target` outside double quotes.
    private static func unquotedIndex(of target: Character, in text: String) -> String.Index? {
        var quoted = false
        for index in text.indices {
            if text[index] == "\"" { quoted.toggle() }
            if !quoted && text[index] == target { return index }
        }
        return nil
    }

    /// `text` with RFC 2047 encoded words (`=?UTF-8?Q?Zo=C3=AB?=`, `=?UTF-8?B?…?=`) decoded;
    /// UTF-8 and ISO-8859-1 only, anything else as written.
    static func decoded(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        var afterEncodedWord = false
        while let start = rest.range(of: "=?") {
            let parts = rest[start.upperBound...].split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, parts[3].hasPrefix("="),
                let bytes = encodedBytes(String(parts[2]), encoding: parts[1].uppercased())
            else {
                result += rest[..<start.upperBound]
                rest = rest[start.upperBound...]
                afterEncodedWord = false
                continue
            }
            let before = rest[..<start.lowerBound]
            // White space between two encoded words is not part of the text (RFC 2047 6.2).
            if !(afterEncodedWord && before.allSatisfy(\.isWhitespace)) { result += before }
            let charset: String.Encoding = parts[0].lowercased() == "utf-8" ? .utf8 : .isoLatin1
            result += String(data: Data(bytes), encoding: charset) ?? String(parts[2])
            rest = parts[3].dropFirst()
            afterEncodedWord = true
        }
        return result + rest
    }

    /// The bytes of an encoded word's text in its encoding, `B` (base64) or `Q`.
    private static func encodedBytes(_ text: String, encoding: String) -> [UInt8]? {
        if encoding == "B" { return Data(base64Encoded: text).map([UInt8].init) }
        guard encoding == "Q" else { return nil }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "_") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "="), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }
}
