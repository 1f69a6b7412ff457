import FoundationEssentials

extension MembershipFile {
    /// The number of the first line of `data` that is neither blank nor a record key (once
    /// surrounding spaces and a carriage return are trimmed), or `nil` when every line is.
    ///
    /// Stricter than reading: a line holding JSON punctuation (`"`, `{`, `}`, `[`, `]`), a
    /// control character or a conflict marker is not taken for a key, so that a damaged record
    /// is never mistaken for a membership list. Reading a store skips lines that are not keys
    /// (`contacts doctor` reports them); a merge must not, since skipping them would turn a
    /// damaged version into a clean result.
    ///
    /// ```swift
    /// MembershipFile.firstLineNotAKey(in: Data("ann-a\n{\n".utf8))  // 2
    /// ```
    static func firstLineNotAKey(in data: Data) -> Int? {
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var bytes = line[...]
            while let first = bytes.first, isTrimmed(first) { bytes.removeFirst() }
            while let last = bytes.last, isTrimmed(last) { bytes.removeLast() }
            guard !bytes.isEmpty else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if bytes.contains(where: isForbidden) || conflictMarkers.contains(where: text.hasPrefix) || RecordKey(rawValue: text) == nil {
                return lineNumber
            }
        }
        return nil
    }

    private static let conflictMarkers = ["<<<<<<<", "=======", ">>>>>>>", "|||||||"]

    private static func isTrimmed(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }

    private static func isForbidden(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
            || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
    }
}
