/// The text rules of iCalendar (RFC 5545 section 3.1 and 3.3.11): escaping a `TEXT` value and
/// folding a content line, with CRLF line ends.
///
/// ```swift
/// ICalendarText.escape("Bell, Katie; \"Kat\"")   // Bell\, Katie\; "Kat"
/// var text: [UInt8] = []
/// ICalendarText.appendLine("SUMMARY:" + summary, to: &text)
/// ```
enum ICalendarText {
    /// The longest a physical line may be, in octets, without its CRLF.
    static let lineLength = 75

    /// A `TEXT` value escaped: `\` as `\\`, `;` as `\;`, `,` as `\,`, a line break (CRLF, LF or
    /// CR) as `\n`; other control characters, which `TEXT` does not allow, are left out.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r": result += "\\n"
            case "\n": if !previousWasCR { result += "\\n" }
            case "\t": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Appends a content line to `text`, folded into physical lines of at most ``lineLength``
    /// octets (a continuation line starts with a space, which counts), each ended by CRLF. A
    /// fold never splits a UTF-8 sequence.
    static func appendLine(_ line: String, to text: inout [UInt8]) {
        let bytes = Array(line.utf8)
        var start = 0
        var limit = lineLength
        while bytes.count - start > limit {
            var end = start + limit
            // Back up to the first byte of a UTF-8 sequence (a continuation byte is 10xxxxxx).
            while end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            text += bytes[start..<end]
            text += [0x0D, 0x0A, 0x20]
            start = end
            limit = lineLength - 1
        }
        text += bytes[start...]
        text += [0x0D, 0x0A]
    }
}
