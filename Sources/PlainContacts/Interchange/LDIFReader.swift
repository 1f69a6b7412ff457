import FoundationEssentials

/// One attribute value of an LDIF record.
struct LDIFAttribute: Sendable {
    /// The attribute name as written, without options (`cn` of `cn;lang-ja`).
    let name: String
    /// The value's bytes: as written, or decoded from base64 for `name:: value`.
    let bytes: [UInt8]
    /// Whether the value is a URL (`name:< file:///photo.jpg`), not the value itself.
    let isURL: Bool
    /// The 1-based line of the file where the attribute starts.
    let line: Int

    /// The name in lower case, for matching (LDIF attribute names are case-insensitive).
    var key: String { name.lowercased() }

    /// The value as text: UTF-8, or the charset guessed when the bytes are not UTF-8.
    var text: String {
        bytes.withUnsafeBufferPointer { VCardCharset.decodeGuessing($0).text }
    }
}

/// One record of an LDIF file: its distinguished name and attributes in file order.
struct LDIFRecord: Sendable {
    /// The `dn` value; empty for a record written without one.
    var dn: String
    /// The 1-based line where the record starts.
    var line: Int
    /// The attributes after `dn`, in file order.
    var attributes: [LDIFAttribute]

    /// The text values of the attributes named `key` (lower case), in file order.
    func values(_ key: String) -> [String] {
        attributes.filter { $0.key == key && !$0.isURL }.map(\.text)
    }

    /// Whether any `objectclass` value is `name` (compared case-insensitively).
    func hasObjectClass(_ name: String) -> Bool {
        values("objectclass").contains { CardBuilder.trimmed($0).lowercased() == name }
    }
}

/// Reads the records of an LDIF file (RFC 2849): records separated by blank lines, `#`
/// comments, folded lines (a line starting with one space continues the one before),
/// base64 values (`name:: dGV4dA==`), URL values (`name:< file:///x`), a leading
/// `version: 1`, and attribute options (`cn;lang-ja`), which are dropped.
///
/// Change records (`changetype: modify`, `delete`, `modrdn`) are skipped with a warning;
/// `changetype: add` records are read as content. What cannot be read (a line without a colon,
/// bad base64) is skipped with a warning naming the line.
///
/// ```swift
/// var log = ConversionLog(source: "export.ldif", strict: false)
/// let records = try LDIFReader.records("dn: cn=Katie Bell\ncn: Katie Bell\n", log: &log)
/// records[0].values("cn")   // ["Katie Bell"]
/// ```
enum LDIFReader {
    /// One unfolded line with the line of the file where it starts.
    private struct LogicalLine {
        /// The line's text, continuations appended.
        var text: String
        /// The 1-based line of the file where it starts.
        var line: Int
    }

    /// The records of `text`, in file order.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedInput`` for the first recovery when the log is
    ///   strict.
    static func records(_ text: String, log: inout ConversionLog) throws -> [LDIFRecord] {
        var records: [LDIFRecord] = []
        var isFirst = true
        for block in blocks(of: text) {
            var lines = block
            if isFirst, let first = lines.first, attributeName(of: first.text)?.lowercased() == "version" {
                lines.removeFirst()
            }
            isFirst = false
            guard !lines.isEmpty else { continue }
            if let record = try record(from: lines, log: &log) { records.append(record) }
        }
        return records
    }

    /// The unfolded lines of `text` grouped into records, comments dropped.
    private static func blocks(of text: String) -> [[LogicalLine]] {
        var blocks: [[LogicalLine]] = []
        var current: [LogicalLine] = []
        var inComment = false
        var number = 0
        // "\r\n" is one Character in Swift, so every line end is named.
        let lineEnds: Set<Character> = ["\n", "\r\n", "\r"]
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: lineEnds.contains) {
            number += 1
            if line.isEmpty {
                if !current.isEmpty { blocks.append(current) }
                current = []
                inComment = false
            } else if line.first == " " {
                // A folded line continues the comment or attribute before it.
                if !inComment, !current.isEmpty { current[current.count - 1].text += line.dropFirst() }
            } else if line.first == "#" {
                inComment = true
            } else {
                inComment = false
                current.append(LogicalLine(text: String(line), line: number))
            }
        }
        if !current.isEmpty { blocks.append(current) }
        return blocks
    }

    /// The attribute name before the first colon, without options; `nil` without a colon.
    private static func attributeName(of line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon].split(separator: ";", omittingEmptySubsequences: false).first ?? ""
        return CardBuilder.trimmed(String(name))
    }

    /// The record of a block, or `nil` for a change record that is skipped.
    private static func record(from lines: [LogicalLine], log: inout ConversionLog) throws -> LDIFRecord? {
        var attributes: [LDIFAttribute] = []
        for line in lines {
            if let attribute = try attribute(from: line, log: &log) { attributes.append(attribute) }
        }
        var dn = ""
        if let first = attributes.first, first.key == "dn" {
            dn = first.text
            attributes.removeFirst()
        }
        if let change = attributes.first(where: { $0.key == "changetype" }) {
            let kind = CardBuilder.trimmed(change.text).lowercased()
            guard kind == "add" else {
                try log.recover(
                    "the change record (changetype: \(kind)) at line \(lines[0].line) was skipped", line: lines[0].line)
                return nil
            }
            attributes.removeAll { $0.key == "changetype" }
        }
        guard !attributes.isEmpty || !dn.isEmpty else { return nil }
        return LDIFRecord(dn: dn, line: lines[0].line, attributes: attributes)
    }

    /// The attribute of one unfolded line, or `nil` (after a warning) for one that cannot be read.
    private static func attribute(from line: LogicalLine, log: inout ConversionLog) throws -> LDIFAttribute? {
        guard let colon = line.text.firstIndex(of: ":"), let name = attributeName(of: line.text), !name.isEmpty
        else {
            if line.text == "-" { return nil }  // The separator of a modify record's changes.
            try log.recover("line \(line.line) has no attribute name and colon; it was skipped", line: line.line)
            return nil
        }
        var rest = line.text[line.text.index(after: colon)...]
        if rest.first == ":" {
            rest = rest.dropFirst()
            let encoded = rest.filter { !$0.isWhitespace }
            guard let bytes = decodeBase64(encoded) else {
                try log.recover(
                    "the base64 value of \(name) at line \(line.line) cannot be decoded; it was skipped",
                    line: line.line)
                return nil
            }
            return LDIFAttribute(name: name, bytes: bytes, isURL: false, line: line.line)
        }
        if rest.first == "<" {
            let url = CardBuilder.trimmed(String(rest.dropFirst()))
            return LDIFAttribute(name: name, bytes: Array(url.utf8), isURL: true, line: line.line)
        }
        let value = rest.drop { $0 == " " }
        return LDIFAttribute(name: name, bytes: Array(value.utf8), isURL: false, line: line.line)
    }

    /// The bytes of base64 text, padded when the padding is missing; `nil` when not base64.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        var padded = text
        let remainder = padded.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { padded += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: padded).map { Array($0) }
    }
}
