/// The fields of the device-local state files that the client and the server append to (the
/// sync status and base files, the server's card state): separated by tabs, one record a line,
/// each field with its backslashes, tabs and line breaks escaped.
///
/// ```swift
/// let line = fields.map(TabSeparatedFields.escape).joined(separator: "\t")
/// let read = line.utf8.split(separator: 0x09, omittingEmptySubsequences: false).map(TabSeparatedFields.unescape)
/// ```
enum TabSeparatedFields {
    /// A field with its backslashes, tabs and line breaks escaped.
    static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        var escaped = ""
        for character in field {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A field read back: the inverse of ``escape(_:)``.
    static func unescape(_ field: ArraySlice<UInt8>) -> String {
        guard field.contains(0x5C) else { return String(decoding: field, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(field.count)
        var escaping = false
        for byte in field {
            if escaping {
                switch byte {
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                default: result.append(byte)
                }
                escaping = false
            } else if byte == 0x5C {
                escaping = true
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends a tab and a text field, escaped, copying its bytes at once where it needs no
    /// escape (a state file holds tens of thousands of fields).
    static func append(_ field: String, to bytes: inout [UInt8]) {
        bytes.append(0x09)
        var field = field
        field.withUTF8 { utf8 in
            // Every byte is looked at without branching, which the compiler vectorizes; a
            // control byte that needs no escape only takes the slower path.
            var special: UInt8 = 0
            for byte in utf8 { special |= (byte == 0x5C ? 1 : 0) | (byte <= 0x0D ? 1 : 0) }
            if special != 0 {
                bytes += escape(String(decoding: utf8, as: UTF8.self)).utf8
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
    }

    /// Appends a tab and a number in decimal, without making a string of it (a state file holds
    /// hundreds of thousands).
    static func append(_ number: some BinaryInteger, to bytes: inout [UInt8]) {
        bytes.append(0x09)
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = UInt64(number.magnitude)
        // The digits are made last first, into room for the longest 64-bit number, and copied once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
