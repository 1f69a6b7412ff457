/// A JSON number that keeps its literal text exactly as it was written.
///
/// The store rewrites files byte for byte, so a number read from disk must come back with the
/// same spelling: `1.50` stays `1.50`, `1e3` stays `1e3`. Two numbers are equal when their
/// literal texts are equal, so `1.0` and `1` are different values.
///
/// ```swift
/// let age = JSONNumber(42)                  // literal "42"
/// let price = JSONNumber(literal: "1.50")   // literal "1.50"
/// price?.double                             // 1.5
/// price?.int                                // nil: not an integer literal
/// JSONNumber(literal: "01")                 // nil: leading zeros are not JSON
/// ```
package struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written in JSON, for example `-12`, `1.50` or `6.02e23`.
    package let literal: String

    /// Creates a number from an integer; its literal is the decimal spelling of `int`.
    package init(_ int: Int) {
        self.literal = String(int)
    }

    /// Creates a number from JSON text, or returns `nil` when `literal` does not follow the
    /// number grammar of RFC 8259 (`-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`).
    ///
    /// Surrounding whitespace is not allowed: `JSONNumber(literal: " 1")` is `nil`.
    package init?(literal: String) {
        var text = literal
        let valid = text.withUTF8 { bytes -> Bool in
            guard let end = try? JSONNumber.scanLiteral(bytes, from: 0) else { return false }
            return end == bytes.count
        }
        guard valid else { return nil }
        self.literal = literal
    }

    /// Wraps text that the caller has already checked against the number grammar.
    init(validatedLiteral: String) {
        self.literal = validatedLiteral
    }

    /// The value as an `Int`, when the literal is an integer (no fraction, no exponent)
    /// that fits in `Int`; otherwise `nil`. `1e2` and `1.0` give `nil`.
    package var int: Int? {
        for byte in literal.utf8 where byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        return Int(literal)
    }

    /// The nearest `Double` to the literal, or `nil` when its magnitude is beyond the range of
    /// `Double` (for example `1e400`). Very small magnitudes round to zero.
    package var double: Double? {
        guard let value = Double(literal), value.isFinite else { return nil }
        return value
    }

    /// The literal text.
    package var description: String { literal }
}

extension JSONNumber {
    /// Scans one number that starts at `start` according to the RFC 8259 grammar and returns
    /// the offset just past its last byte. It stops at the first byte that cannot continue the
    /// number; the caller decides whether what follows is acceptable.
    ///
    /// - Throws: a ``JSONParser/Failure`` at the offending byte when the text starting at
    ///   `start` is not a number (`-`, `01`, `1.`, `1e`, `.5`, …).
    static func scanLiteral(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) throws(JSONParser.Failure) -> Int {
        let count = bytes.count
        var index = start

        @inline(__always) func isDigit(_ offset: Int) -> Bool {
            offset < count && bytes[offset] &- UInt8(ascii: "0") < 10
        }

        if index < count, bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard isDigit(index) else {
            throw JSONParser.Failure(at: index, "expected a digit")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) {
                throw JSONParser.Failure(at: index, "a number must not have leading zeros")
            }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else {
                throw JSONParser.Failure(at: index, "expected a digit after the decimal point")
            }
            while isDigit(index) { index += 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else {
                throw JSONParser.Failure(at: index, "expected a digit in the exponent")
            }
            while isDigit(index) { index += 1 }
        }
        return index
    }
}
