import FoundationEssentials
import PlainContacts

extension PasswordHash {
    /// The separator between the four fields of the text form.
    private static let fieldSeparator: Character = "$"

    /// The text form, written exactly: `pbkdf2-sha256$<iterations>$<salt>$<key>` with the
    /// iteration count in decimal and salt and key in padded standard base64 (RFC 4648).
    ///
    /// ```swift
    /// hash.text
    /// // "pbkdf2-sha256$200000$c2FsdHNhbHRzYWx0c2FsdA==$…="
    /// ```
    var text: String {
        [
            algorithm.rawValue,
            String(iterations),
            Data(salt).base64EncodedString(),
            Data(derivedKey).base64EncodedString(),
        ].joined(separator: String(Self.fieldSeparator))
    }

    /// Reads the text form leniently: surrounding whitespace is ignored, the algorithm name is
    /// case-insensitive, and base64 padding may be left out. The iteration count must lie in
    /// `minimumIterations...maximumIterations`, the salt be 8 to 64 bytes and the key 16 to 64.
    ///
    /// ```swift
    /// let hash = try PasswordHash(parsing: "pbkdf2-sha256$200000$c2FsdHNhbHRzYWx0c2FsdA$…")
    /// let quick = try PasswordHash(parsing: testText, minimumIterations: 1)  // tests only
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` for text of another shape, an unknown
    ///   algorithm, invalid base64, a salt or key of unaccepted length, or an iteration count
    ///   outside the accepted range. The message never quotes the text.
    init(parsing text: String, minimumIterations: Int = PasswordHash.minimumIterations) throws(ContactsError) {
        let fields = Self.trimmingWhitespace(text)
            .split(separator: Self.fieldSeparator, omittingEmptySubsequences: false)
        guard fields.count == 4 else {
            throw Self.malformed("a password hash has four fields separated by '$'")
        }
        guard let algorithm = Algorithm(rawValue: fields[0].lowercased()) else {
            throw Self.malformed("a password hash names an unknown algorithm")
        }
        guard !fields[1].isEmpty,
            fields[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else {
            throw Self.malformed("a password hash's iteration count is not a decimal number")
        }
        // Digits too many for Int are a count far above the maximum.
        let iterations = Int(fields[1]) ?? Int.max
        guard iterations >= max(1, minimumIterations), iterations <= Self.maximumIterations else {
            throw Self.malformed(
                "a password hash's iteration count must lie between \(max(1, minimumIterations)) and \(Self.maximumIterations)")
        }
        guard let salt = Self.decodeBase64(fields[2]), Self.acceptedSaltCounts.contains(salt.count) else {
            throw Self.malformed("a password hash's salt is not base64 of 8 to 64 bytes")
        }
        guard let key = Self.decodeBase64(fields[3]), Self.acceptedDerivedKeyCounts.contains(key.count) else {
            throw Self.malformed("a password hash's key is not base64 of 16 to 64 bytes")
        }
        self.init(algorithm: algorithm, iterations: iterations, salt: salt, derivedKey: key)
    }

    /// Returns `text` without leading and trailing spaces, tabs, carriage returns and line feeds.
    private static func trimmingWhitespace(_ text: String) -> Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        let start = text.firstIndex { !isWhitespace($0) } ?? text.endIndex
        let end = text.lastIndex { !isWhitespace($0) }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }

    /// Decodes standard base64 with or without its `=` padding; `nil` if invalid.
    private static func decodeBase64(_ field: Substring) -> [UInt8]? {
        var padded = String(field)
        if padded.utf8.count % 4 != 0 {
            padded += String(repeating: "=", count: 4 - padded.utf8.count % 4)
        }
        return Data(base64Encoded: padded).map { Array($0) }
    }

    /// An error of code `.invalidValue` that never quotes the text.
    private static func malformed(_ message: String) -> ContactsError {
        ContactsError(.invalidValue, message)
    }
}
