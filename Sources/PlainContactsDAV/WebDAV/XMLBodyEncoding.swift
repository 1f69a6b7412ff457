import FoundationEssentials

/// The guard in front of every XML reader: a body's bytes as checked UTF-8, whatever encoding
/// the body is in, or a refusal before any parser sees them.
///
/// A body is UTF-8 unless a byte order mark says UTF-16 or its XML declaration names another
/// encoding this guard reads (US-ASCII, ISO-8859-1, windows-1252, UTF-16 with a byte order
/// mark), which is turned into UTF-8 first. Whatever the encoding, every character must be one
/// XML allows: no bytes that are not UTF-8 (an overlong form, a surrogate, a stray continuation
/// byte, a sequence cut short), no control characters but tab, line feed and carriage return,
/// and neither U+FFFE nor U+FFFF.
///
/// ```swift
/// let utf8 = try XMLBodyEncoding.utf8(of: Data("<a>é</a>".utf8))   // the same bytes, checked
/// try XMLBodyEncoding.utf8(of: Data([0x3C, 0x61, 0xFF, 0x2F, 0x3E])) // throws: not UTF-8, line 1
/// ```
enum XMLBodyEncoding {
    /// The longest XML declaration read for its encoding: `<?xml version="1.0" encoding="…"
    /// standalone="yes"?>` with generous spacing fits many times over.
    static let maximumDeclarationLength = 256

    /// A checked body: its own bytes, read as they are from an offset (past a byte order mark),
    /// or new bytes when it was in another encoding.
    enum Checked {
        /// The body is UTF-8 from this offset on.
        case asSent(from: Int)
        /// The body turned into UTF-8.
        case transcoded([UInt8])
    }

    /// The body's bytes as UTF-8, without a byte order mark.
    ///
    /// - Throws: what ``check(_:)`` throws.
    static func utf8(of data: Data) throws(WebDAVXML.Refusal) -> [UInt8] {
        let bytes = [UInt8](data)
        let checked = try bytes.withUnsafeBufferPointer { buffer throws(WebDAVXML.Refusal) in try check(buffer) }
        switch checked {
        case .asSent(let offset): return Array(bytes[offset...])
        case .transcoded(let body): return body
        }
    }

    /// Checks a body, turning it into UTF-8 when it is in another encoding, without copying a
    /// body that is UTF-8 already (an answer may be hundreds of megabytes).
    ///
    /// - Throws: a ``WebDAVXML/Refusal`` naming the line of the first byte that is not a
    ///   character of the body's encoding or not one XML allows, or naming an encoding this
    ///   guard does not read.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) throws(WebDAVXML.Refusal) -> Checked {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            try checkUTF8(UnsafeBufferPointer(rebasing: bytes[3...]))
            return .asSent(from: 3)
        }
        if let bigEndian = utf16ByteOrder(of: bytes) {
            return .transcoded(try checked(utf8(fromUTF16: bytes, bigEndian: bigEndian)))
        }
        let declared = declaredEncoding(of: bytes)
        switch declared.map(normalizedName) {
        case nil, "utf8":
            try checkUTF8(bytes)
            return .asSent(from: 0)
        case "usascii", "ascii":
            if let index = bytes.firstIndex(where: { $0 >= 0x80 }) {
                throw refusal("holds a byte that is not US-ASCII, the encoding it declares", at: index, in: bytes, hint: "; send UTF-8")
            }
            try checkUTF8(bytes)
            return .asSent(from: 0)
        case "iso88591", "latin1", "l1", "isolatin1":
            return .transcoded(try checked(utf8(fromSingleByte: bytes, windows1252: false)))
        case "windows1252", "cp1252":
            return .transcoded(try checked(utf8(fromSingleByte: bytes, windows1252: true)))
        case "utf16", "utf16le", "utf16be":
            throw WebDAVXML.Refusal(message: "the body declares UTF-16 but is not in it (no byte order mark); send UTF-8")
        case .some:
            throw WebDAVXML.Refusal(
                message: "the body declares the encoding \(printable(declared ?? "")), which is not read here; send UTF-8")
        }
    }

    /// `bytes`, once ``checkUTF8(_:)`` has passed them.
    private static func checked(_ bytes: [UInt8]) throws(WebDAVXML.Refusal) -> [UInt8] {
        try bytes.withUnsafeBufferPointer { buffer throws(WebDAVXML.Refusal) in try checkUTF8(buffer) }
        return bytes
    }

    /// Checks that `bytes` are UTF-8 holding only characters XML allows.
    ///
    /// - Throws: a ``WebDAVXML/Refusal`` naming the line of the first offending byte.
    static func checkUTF8(_ buffer: UnsafeBufferPointer<UInt8>) throws(WebDAVXML.Refusal) {
        let problem: (index: Int, reason: String)? = {
            var index = 0
            let count = buffer.count
            while index < count {
                let byte = buffer[index]
                if byte >= 0x20 && byte < 0x80 {
                    index += 1
                    continue
                }
                if byte < 0x20 {
                    guard byte == 0x09 || byte == 0x0A || byte == 0x0D else {
                        return (index, "holds a control character, which XML does not allow")
                    }
                    index += 1
                    continue
                }
                guard let length = sequenceLength(buffer, at: index) else {
                    return (index, "is not valid UTF-8")
                }
                // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
                if length == 3 && byte == 0xEF && buffer[index + 1] == 0xBF && buffer[index + 2] >= 0xBE {
                    return (index, "holds U+FFFE or U+FFFF, which XML does not allow")
                }
                index += length
            }
            return nil
        }()
        if let problem {
            throw refusal(problem.reason, at: problem.index, in: buffer, hint: problem.reason.hasPrefix("is not") ? "; send UTF-8" : "")
        }
    }

    /// The length of the well-formed UTF-8 sequence of more than one byte at `index`
    /// (RFC 3629 section 4: no overlong forms, no surrogates, nothing above U+10FFFF), or `nil`.
    private static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = buffer[index]
        let remaining = buffer.count - index
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            offset < remaining && range.contains(buffer[index + offset])
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : nil
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : nil
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : nil
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : nil
        default:
            return nil
        }
    }

    /// The byte order of a body in UTF-16, from its byte order mark or from an XML declaration
    /// written in UTF-16 without one (`<?` as two 16-bit units): `true` for big-endian.
    private static func utf16ByteOrder(of bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return true }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return false }
        return nil
    }

    /// A UTF-16 body as UTF-8, its byte order mark dropped.
    ///
    /// - Throws: a ``WebDAVXML/Refusal`` for an odd length or a surrogate without its pair.
    private static func utf8(fromUTF16 bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool) throws(WebDAVXML.Refusal) -> [UInt8] {
        guard bytes.count % 2 == 0 else {
            throw WebDAVXML.Refusal(message: "the body is not valid UTF-16 (an odd number of bytes)")
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index < bytes.count {
            let high = UInt16(bytes[index]), low = UInt16(bytes[index + 1])
            units.append(bigEndian ? high << 8 | low : low << 8 | high)
            index += 2
        }
        var index16 = units.first == 0xFEFF ? 1 : 0
        var output: [UInt8] = []
        output.reserveCapacity(units.count * 2)
        while index16 < units.count {
            let unit = UInt32(units[index16])
            switch unit {
            case 0xD800...0xDBFF:
                guard index16 + 1 < units.count, (0xDC00...0xDFFF).contains(units[index16 + 1]) else {
                    throw WebDAVXML.Refusal(message: "the body is not valid UTF-16 (a surrogate without its pair)")
                }
                let low = UInt32(units[index16 + 1])
                XMLReader.appendUTF8(0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00), to: &output)
                index16 += 2
            case 0xDC00...0xDFFF:
                throw WebDAVXML.Refusal(message: "the body is not valid UTF-16 (a surrogate without its pair)")
            default:
                XMLReader.appendUTF8(unit, to: &output)
                index16 += 1
            }
        }
        return output
    }

    /// A body in ISO-8859-1 or windows-1252 as UTF-8.
    private static func utf8(fromSingleByte bytes: UnsafeBufferPointer<UInt8>, windows1252: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            var value = UInt32(byte)
            if windows1252, (0x80...0x9F).contains(byte) {
                value = windows1252High[Int(byte - 0x80)]
            }
            XMLReader.appendUTF8(value, to: &output)
        }
        return output
    }

    /// What windows-1252 puts at 0x80–0x9F; its five unassigned bytes keep their ISO-8859-1
    /// meaning (C1 controls), which ``checkUTF8(_:)`` then takes as characters.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// The `encoding` of the XML declaration the body starts with, as written, or `nil`.
    static func declaredEncoding(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), bytes.count > 5,
            [0x20, 0x09, 0x0A, 0x0D].contains(bytes[5])
        else { return nil }
        let window = bytes.prefix(maximumDeclarationLength)
        let end = window.indices.first { index in
            index + 1 < window.endIndex && window[index] == UInt8(ascii: "?") && window[index + 1] == UInt8(ascii: ">")
        }
        let declaration = Array(window[..<(end ?? window.endIndex)])
        let marker = Array("encoding".utf8)
        guard declaration.count > marker.count,
            let start = (0...(declaration.count - marker.count)).first(where: { declaration[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { return nil }
        var index = start + marker.count
        while index < declaration.count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains(declaration[index]) { index += 1 }
        guard index < declaration.count, declaration[index] == UInt8(ascii: "\"") || declaration[index] == UInt8(ascii: "'") else {
            return nil
        }
        let quote = declaration[index]
        let valueStart = index + 1
        let valueEnd = declaration[valueStart...].firstIndex(of: quote) ?? declaration.count
        return String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self)
    }

    /// An encoding's name lowercased without `-`, `_`, `.` and spaces: `UTF-8` is `utf8`.
    private static func normalizedName(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !"-_. ".unicodeScalars.contains($0) }.map(Character.init))
    }

    /// A name fit for a message: printable ASCII only, at most 40 characters.
    private static func printable(_ name: String) -> String {
        let kept = name.unicodeScalars.prefix(40).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return "\"" + String(kept) + "\""
    }

    /// A refusal saying that the body `reason`, at the line of `index`, then `hint`.
    private static func refusal(_ reason: String, at index: Int, in bytes: UnsafeBufferPointer<UInt8>, hint: String) -> WebDAVXML.Refusal {
        let line = 1 + bytes[..<index].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        return WebDAVXML.Refusal(message: "the body \(reason) (line \(line))\(hint)")
    }
}
