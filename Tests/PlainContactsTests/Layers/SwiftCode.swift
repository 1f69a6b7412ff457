/// Swift source with its comments and the text of its string literals blanked out, so that the
/// words left are the code's: the type names a file declares and the ones it uses.
///
/// Blanking keeps every byte's place (newlines stay, everything else blanked becomes a space)
/// and keeps the code of string interpolations, which may name types. Regular expression
/// literals are not recognised (the sources have none).
///
/// ```swift
/// let code = SwiftCode("/// A `Person`.\nstruct Card { let name = \"Person\" }")
/// code.topLevelTypeNames   // ["Card"]
/// code.capitalizedNames    // ["Card"]
/// ```
struct SwiftCode {
    /// The blanked source, as UTF-8.
    let bytes: [UInt8]
    /// The blanked source's tokens, in order.
    let tokens: [Token]

    /// The blanked source as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Blanks the comments and string literals of `source`.
    init(_ source: String) {
        var blanker = Blanker(source: Array(source.utf8))
        blanker.readCode(inInterpolation: false)
        bytes = blanker.output
        tokens = Self.tokens(of: bytes)
    }

    /// The keywords that declare a type.
    static let typeKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias"]

    /// The keywords that declare a member or a variable.
    static let memberKeywords: Set<String> = ["func", "var", "let", "case"]

    /// The names of the types declared outside any braces (`struct`, `class`, `enum`,
    /// `protocol`, `actor`, `typealias`), in order. Nested types are left out: another folder
    /// names them through the type they are in.
    var topLevelTypeNames: [String] {
        var names: [String] = []
        walk { token, previous, depth in
            if depth == 0, case .word(let word) = token, case .word(let keyword)? = previous,
                Self.typeKeywords.contains(keyword), Self.isIdentifier(word)
            {
                names.append(word)
            }
        }
        return names
    }

    /// The identifiers that start with an uppercase letter and do not follow a `.`: the types,
    /// and the other capitalised names, that the code names itself. `Outer.Inner` counts as
    /// `Outer`; `extension Person` counts as `Person`.
    var capitalizedNames: Set<String> {
        var names: Set<String> = []
        walk { token, previous, _ in
            if case .word(let word) = token, let first = word.utf8.first,
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first), previous != .punctuation(UInt8(ascii: "."))
            {
                names.insert(word)
            }
        }
        return names
    }

    /// The members (`func`, `var`, `let`) declared directly in the `extension` blocks outside
    /// any braces, with the name of the extended type (its first part, for `Outer.Inner`).
    var extensionMembers: [(type: String, member: String)] {
        var members: [(type: String, member: String)] = []
        var extended: String?
        var inBody = false
        walk { token, previous, depth in
            switch token {
            case .word(let word) where depth == 0 && previous == .word("extension"):
                extended = word
                inBody = false
            case .punctuation(UInt8(ascii: "{")) where depth == 1 && extended != nil:
                inBody = true  // `depth` is the depth after the brace.
            case .punctuation(UInt8(ascii: "}")) where depth == 0:
                extended = nil
                inBody = false
            case .word(let word) where depth == 1 && inBody:
                if let extended, case .word(let keyword)? = previous, ["func", "var", "let"].contains(keyword),
                    Self.isIdentifier(word)
                {
                    members.append((extended, word))
                }
            default: break
            }
        }
        return members
    }

    /// The names declared by `func`, `var`, `let` or `case` at any depth.
    var declaredNames: Set<String> {
        var names: Set<String> = []
        walk { token, previous, _ in
            if case .word(let word) = token, case .word(let keyword)? = previous, Self.memberKeywords.contains(keyword),
                Self.isIdentifier(word)
            {
                names.insert(word)
            }
        }
        return names
    }

    /// The words that follow a `.`: the members the code names.
    var memberNames: Set<String> {
        var names: Set<String> = []
        walk { token, previous, _ in
            if case .word(let word) = token, previous == .punctuation(UInt8(ascii: ".")) { names.insert(word) }
        }
        return names
    }

    /// Calls `body` with each token, the token before it, and the depth of braces after it.
    private func walk(_ body: (_ token: Token, _ previous: Token?, _ depth: Int) -> Void) {
        var depth = 0
        var previous: Token?
        for token in tokens {
            if token == .punctuation(UInt8(ascii: "{")) { depth += 1 }
            if token == .punctuation(UInt8(ascii: "}")) { depth -= 1 }
            body(token, previous, depth)
            previous = token
        }
    }

    /// One word (letters, digits and underscores) or one other character that is not a space.
    /// Backticks are skipped, so `` `Type` `` reads as `Type`.
    enum Token: Equatable {
        case word(String)
        case punctuation(UInt8)
    }

    private static func tokens(of bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isWordByte(byte) {
                let start = index
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                tokens.append(.word(String(decoding: bytes[start..<index], as: UTF8.self)))
                continue
            }
            if !isSpace(byte) && byte != UInt8(ascii: "`") { tokens.append(.punctuation(byte)) }
            index += 1
        }
        return tokens
    }

    /// Whether `word` is an identifier rather than a number or a keyword that may follow a
    /// declaring one (`class func`, `case let`).
    private static func isIdentifier(_ word: String) -> Bool {
        guard let first = word.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return !["func", "var", "let", "subscript", "init", "static", "class", "mutating"].contains(word)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
}

/// Walks a source once, blanking comments and the text of string literals in a copy of it.
private struct Blanker {
    let source: [UInt8]
    var output: [UInt8]
    var index = 0

    init(source: [UInt8]) {
        self.source = source
        self.output = source
    }

    private static let quote = UInt8(ascii: "\"")
    private static let hash = UInt8(ascii: "#")
    private static let backslash = UInt8(ascii: "\\")
    private static let newline = UInt8(ascii: "\n")

    /// Reads code up to the end, or, in an interpolation, up to the `)` that closes it (left
    /// unread), blanking the comments and string literals met on the way.
    mutating func readCode(inInterpolation: Bool) {
        var parentheses = 0
        while index < source.count {
            let byte = source[index]
            if starts(with: "//") {
                while index < source.count, source[index] != Self.newline { blank(1) }
            } else if starts(with: "/*") {
                blankBlockComment()
            } else if let opener = stringOpener() {
                readString(hashes: opener.hashes, multiline: opener.multiline)
            } else if inInterpolation && byte == UInt8(ascii: "(") {
                parentheses += 1
                index += 1
            } else if inInterpolation && byte == UInt8(ascii: ")") {
                if parentheses == 0 { return }
                parentheses -= 1
                index += 1
            } else {
                index += 1
            }
        }
    }

    /// Blanks a `/* */` comment, which may hold other ones.
    private mutating func blankBlockComment() {
        var depth = 0
        repeat {
            if starts(with: "/*") {
                depth += 1
                blank(2)
            } else if starts(with: "*/") {
                depth -= 1
                blank(2)
            } else {
                blank(1)
            }
        } while depth > 0 && index < source.count
    }

    /// The string literal that starts here, if one does: `"`, `"""`, or either after `#`s.
    private func stringOpener() -> (hashes: Int, multiline: Bool)? {
        var position = index
        while position < source.count, source[position] == Self.hash { position += 1 }
        guard position < source.count, source[position] == Self.quote else { return nil }
        return (position - index, isTripleQuote(at: position))
    }

    /// Blanks a string literal's delimiters and text, reading the code of its interpolations.
    private mutating func readString(hashes: Int, multiline: Bool) {
        blank(hashes + (multiline ? 3 : 1))
        while index < source.count {
            if closesString(hashes: hashes, multiline: multiline) {
                blank((multiline ? 3 : 1) + hashes)
                return
            }
            if source[index] == Self.backslash && hashesFollow(index + 1, count: hashes) {
                let escaped = index + 1 + hashes
                if escaped < source.count, source[escaped] == UInt8(ascii: "(") {
                    blank(1 + hashes)
                    index += 1
                    readCode(inInterpolation: true)
                    if index < source.count { index += 1 }
                } else {
                    blank(2 + hashes)
                }
                continue
            }
            // A line break ends a one-line literal that was left open.
            if !multiline && source[index] == Self.newline { return }
            blank(1)
        }
    }

    private func closesString(hashes: Int, multiline: Bool) -> Bool {
        guard source[index] == Self.quote else { return false }
        if multiline && !isTripleQuote(at: index) { return false }
        return hashesFollow(index + (multiline ? 3 : 1), count: hashes)
    }

    private func isTripleQuote(at position: Int) -> Bool {
        position + 2 < source.count && source[position] == Self.quote && source[position + 1] == Self.quote
            && source[position + 2] == Self.quote
    }

    private func hashesFollow(_ position: Int, count: Int) -> Bool {
        guard position + count <= source.count else { return false }
        return source[position..<position + count].allSatisfy { $0 == Self.hash }
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= source.count else { return false }
        return text.withUTF8Buffer { source[index..<index + count].elementsEqual($0) }
    }

    /// Blanks `count` bytes from here (newlines are kept) and moves past them.
    private mutating func blank(_ count: Int) {
        let end = min(index + count, source.count)
        for position in index..<end where source[position] != Self.newline {
            output[position] = UInt8(ascii: " ")
        }
        index = end
    }
}
