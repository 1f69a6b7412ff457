/// One address of an address list: the name shown with it, decoded, and the address itself.
struct Mailbox: Sendable, Equatable {
    /// The display name, or the comment of `addr (Comment Name)`; empty when there is none.
    var name: String
    /// The address (`katie@example.org`), or a bare word that may name another mutt alias.
    var address: String
    /// Whether the address was a bare word without `@`, `<>`, name or comment: in a mutt alias
    /// such a word may be the key of another alias.
    var isBareWord: Bool
}

/// Parses an address list as mail headers and mutt aliases write them (RFC 5322, leniently as
/// mutt does): `Name <addr>`, `"Quoted, Name" <addr>`, `addr (Comment Name)`, a bare `addr`,
/// `<addr>`, groups `list: a@x, b@y;` (flattened, their display names given apart), and
/// RFC 2047 encoded words (`=?UTF-8?Q?Zo=C3=AB?=`, `=?ISO-8859-1?B?...?=`) in names.
///
/// ```swift
/// MailboxListParser.parse(#""Bell, Katie" <katie@example.org>, lee@example.org (Lee Jordan)"#)
/// // [Mailbox(name: "Bell, Katie", address: "katie@example.org"), Mailbox(name: "Lee Jordan", …)]
/// var groupNames: [String] = []
/// MailboxListParser.parse("quidditch: katie@example.org;", groupNames: &groupNames)
/// // groupNames == ["quidditch"]
/// ```
enum MailboxListParser {
    /// What has been read of the mailbox being parsed.
    private struct Pending {
        /// Words and quoted strings before `<`, or the address itself when there is no `<`.
        var words: [String] = []
        /// The texts of `(comments)`.
        var comments: [String] = []
        /// The text between `<` and `>`.
        var angle: String?
        /// The word being read.
        var atom = ""

        /// Whether nothing was read.
        var isEmpty: Bool { words.isEmpty && comments.isEmpty && angle == nil && atom.isEmpty }

        /// Ends the word being read.
        mutating func endAtom() {
            if !atom.isEmpty { words.append(atom) }
            atom = ""
        }
    }

    /// The mailboxes of `text`, groups flattened; `nil` when the text is not an address list
    /// (unbalanced quotes, brackets or parentheses, words without an address, an address with
    /// spaces).
    static func parse(_ text: String) -> [Mailbox]? {
        var groupNames: [String] = []
        return parse(text, groupNames: &groupNames)
    }

    /// The mailboxes of `text`, groups flattened, as ``parse(_:)`` reads them; the display
    /// names of its groups (`quidditch` of `quidditch: a@x, b@y;`), decoded, are appended to
    /// `groupNames`.
    static func parse(_ text: String, groupNames: inout [String]) -> [Mailbox]? {
        var mailboxes: [Mailbox] = []
        var pending = Pending()
        var characters = Substring(text)
        func finish() -> Bool {
            pending.endAtom()
            defer { pending = Pending() }
            if pending.isEmpty { return true }
            guard let mailbox = mailbox(from: pending) else { return false }
            mailboxes.append(mailbox)
            return true
        }
        while let character = characters.popFirst() {
            switch character {
            case "\"":
                pending.endAtom()
                guard let quoted = delimited(&characters, closing: "\"", nests: false) else { return nil }
                pending.words.append(quoted)
            case "(":
                pending.endAtom()
                guard let comment = delimited(&characters, closing: ")", nests: true) else { return nil }
                pending.comments.append(comment)
            case "<":
                pending.endAtom()
                guard pending.angle == nil, let angle = delimited(&characters, closing: ">", nests: false) else {
                    return nil
                }
                pending.angle = CardBuilder.trimmed(angle)
            case ",":
                guard finish() else { return nil }
            case ":" where pending.angle == nil && !pending.atom.contains("@"):
                // A group's name: `list: a@x, b@y;`; the name is given apart, the members kept.
                pending.endAtom()
                let name = CardBuilder.trimmed(EncodedWords.decode(pending.words.joined(separator: " ")))
                if !name.isEmpty { groupNames.append(name) }
                pending = Pending()
            case ";":
                guard finish() else { return nil }
            case ">", ")":
                return nil
            default:
                if character.isWhitespace {
                    pending.endAtom()
                } else {
                    pending.atom.append(character)
                }
            }
        }
        guard finish() else { return nil }
        return mailboxes
    }

    /// The mailbox of what was read between two commas, or `nil` when it holds no address.
    private static func mailbox(from pending: Pending) -> Mailbox? {
        let comment = EncodedWords.decode(pending.comments.map(CardBuilder.trimmed).joined(separator: " "))
        if var address = pending.angle {
            // A source route (`<@relay:katie@x>`) is obsolete syntax; the address follows it.
            if address.hasPrefix("@"), let colon = address.firstIndex(of: ":") {
                address = String(address[address.index(after: colon)...])
            }
            guard isAddress(address) else { return nil }
            let phrase = EncodedWords.decode(pending.words.joined(separator: " "))
            return Mailbox(name: phrase.isEmpty ? comment : phrase, address: address, isBareWord: false)
        }
        guard pending.words.count == 1, isAddress(pending.words[0]) else { return nil }
        let address = pending.words[0]
        let isBare = !address.contains("@") && pending.comments.isEmpty
        return Mailbox(name: comment, address: address, isBareWord: isBare)
    }

    /// Whether `text` can be an address: not empty, without spaces or brackets.
    private static func isAddress(_ text: String) -> Bool {
        !text.isEmpty && !text.contains { $0.isWhitespace || "<>()\",;".contains($0) }
    }

    /// The text up to the unescaped `closing` character, consumed with it; `nil` when it never
    /// comes. Backslash escapes are removed; parentheses nest when `nests`.
    private static func delimited(_ characters: inout Substring, closing: Character, nests: Bool) -> String? {
        var text = ""
        var depth = 0
        while let character = characters.popFirst() {
            if character == "\\" {
                guard let escaped = characters.popFirst() else { return nil }
                text.append(escaped)
            } else if nests, character == "(" {
                depth += 1
                text.append(character)
            } else if character == closing {
                if depth == 0 { return text }
                depth -= 1
                text.append(character)
            } else {
                text.append(character)
            }
        }
        return nil
    }
}
