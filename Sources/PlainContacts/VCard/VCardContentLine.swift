/// The parts of one unfolded content line, `[group.]NAME[;PARAM[=value[,value]]]…:value`,
/// before its value is decoded.
struct VCardContentLine {
    /// What makes a line unreadable.
    enum Failure: Error {
        /// No `:` separates the name and parameters from the value.
        case noColon
        /// The name or group is empty or holds a character other than a letter, digit, `-` or `_`.
        case invalidName
        /// A parameter value opens a double quote that is never closed.
        case unterminatedQuote
    }

    /// How the value is encoded, from the `ENCODING` parameter or a bare vCard 2.1 word.
    enum Encoding {
        case plain, quotedPrintable, base64
    }

    /// The group as written, or `nil`.
    var group: String?
    /// The name in upper case.
    var name: String
    /// The parameters in order, names in upper case.
    var parameters: [VCardParameter]
    /// The offset in the line where the value begins (just after the `:`).
    var valueStart: Int

    /// The encoding the parameters declare.
    var encoding: Encoding {
        for parameter in parameters {
            if parameter.name == "ENCODING" {
                for value in parameter.values {
                    switch VCardText.asciiUppercased(value) {
                    case "QUOTED-PRINTABLE": return .quotedPrintable
                    case "B", "BASE64": return .base64
                    default: continue
                    }
                }
            } else if parameter.values.isEmpty {
                if parameter.name == "QUOTED-PRINTABLE" { return .quotedPrintable }
                if parameter.name == "BASE64" { return .base64 }
            }
        }
        return .plain
    }

    /// The first `CHARSET` value, if any.
    var charset: String? {
        parameters.first { $0.name == "CHARSET" }?.values.first
    }

    /// Splits a line into group, name, parameters and the start of the value.
    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result<VCardContentLine, Failure> {
        var index = 0
        let count = line.count
        var nameStart = 0
        var group: String?
        while index < count {
            let byte = line[index]
            if byte == colon || byte == semicolon { break }
            if byte == dot {
                guard index > nameStart else { return .failure(.invalidName) }
                let groupText = String(decoding: UnsafeBufferPointer(rebasing: line[0..<index]), as: UTF8.self)
                group = groupText
                nameStart = index + 1
            } else if !isNameByte(byte) {
                return .failure(index == 0 || !hasColon(line, from: index) ? .noColon : .invalidName)
            }
            index += 1
        }
        guard index < count else { return .failure(.noColon) }
        guard index > nameStart else { return .failure(.invalidName) }
        let name = uppercasedString(UnsafeBufferPointer(rebasing: line[nameStart..<index]))

        var parameters: [VCardParameter] = []
        while index < count, line[index] == semicolon {
            index += 1
            switch parseParameter(line, from: &index) {
            case .success(let parameter):
                if let parameter { parameters.append(parameter) }
            case .failure(let failure):
                return .failure(failure)
            }
        }
        guard index < count, line[index] == colon else { return .failure(.noColon) }
        return .success(VCardContentLine(group: group, name: name, parameters: parameters, valueStart: index + 1))
    }

    /// Reads one parameter starting at `index` (just after its `;`), leaving `index` on the
    /// `;` or `:` that follows it. An empty parameter (`;;`) gives `nil`.
    private static func parseParameter(
        _ line: UnsafeBufferPointer<UInt8>,
        from index: inout Int
    ) -> Result<VCardParameter?, Failure> {
        let count = line.count
        let nameStart = index
        while index < count {
            let byte = line[index]
            if byte == colon || byte == semicolon || byte == equals { break }
            index += 1
        }
        guard index < count else { return .failure(.noColon) }
        let rawName = trimmed(line, nameStart..<index)
        let name = uppercasedString(UnsafeBufferPointer(rebasing: line[rawName]))
        guard line[index] == equals else {
            return .success(name.isEmpty ? nil : VCardParameter(uppercasedName: name, values: []))
        }
        index += 1
        var values: [String] = []
        while true {
            var text: String
            var skip = index
            while skip < count, line[skip] == space || line[skip] == tab { skip += 1 }
            if skip < count, line[skip] == quote {
                let start = skip + 1
                var end = start
                while end < count, line[end] != quote { end += 1 }
                guard end < count else { return .failure(.unterminatedQuote) }
                text = decodeText(line, start..<end)
                index = end + 1
                let rest = index
                while index < count, line[index] != comma, line[index] != semicolon, line[index] != colon {
                    index += 1
                }
                if index > rest { text += decodeText(line, trimmed(line, rest..<index)) }
            } else {
                let start = index
                while index < count, line[index] != comma, line[index] != semicolon, line[index] != colon {
                    index += 1
                }
                text = decodeText(line, trimmed(line, start..<index))
            }
            guard index < count else { return .failure(.noColon) }
            values.append(text.utf8.contains(caret) ? decodeCarets(text) : text)
            guard line[index] == comma else { break }
            index += 1
        }
        return .success(VCardParameter(uppercasedName: name, values: values))
    }

    /// Bytes of the line as text: UTF-8, or windows-1252 when they are not valid UTF-8.
    private static func decodeText(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        VCardCharset.decode(UnsafeBufferPointer(rebasing: line[range]), charset: nil) ?? ""
    }

    /// Decodes RFC 6868 escapes: `^n` a line feed, `^'` a double quote, `^^` a caret.
    private static func decodeCarets(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        var pending: UInt8?
        while let byte = pending ?? iterator.next() {
            pending = nil
            guard byte == caret else {
                out.append(byte)
                continue
            }
            guard let next = iterator.next() else {
                out.append(caret)
                break
            }
            switch next {
            case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(10)
            case UInt8(ascii: "'"): out.append(quote)
            case caret: out.append(caret)
            default:
                out.append(caret)
                pending = next
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The range without leading and trailing spaces and tabs.
    private static func trimmed(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, line[lower] == space || line[lower] == tab { lower += 1 }
        while upper > lower, line[upper - 1] == space || line[upper - 1] == tab { upper -= 1 }
        return lower..<upper
    }

    /// ASCII bytes as a string with letters in upper case.
    private static func uppercasedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() { buffer[offset] = VCardText.asciiUppercased(byte) }
            return bytes.count
        }
    }

    /// Whether the byte may appear in a property name or group.
    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// Whether a `:` occurs at or after `index`.
    private static func hasColon(_ line: UnsafeBufferPointer<UInt8>, from index: Int) -> Bool {
        UnsafeBufferPointer(rebasing: line[index...]).contains(colon)
    }

    private static let colon = UInt8(ascii: ":")
    private static let semicolon = UInt8(ascii: ";")
    private static let comma = UInt8(ascii: ",")
    private static let equals = UInt8(ascii: "=")
    private static let dot = UInt8(ascii: ".")
    private static let quote = UInt8(ascii: "\"")
    private static let caret = UInt8(ascii: "^")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
}
