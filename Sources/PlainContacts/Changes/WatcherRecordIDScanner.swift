import FoundationEssentials

/// Finds the record ID of a person or group file without parsing the file: the value of the
/// top-level `"id"` key, skipping every nested object and array.
///
/// ```swift
/// WatcherRecordIDScanner.recordID(in: Data(#"{"firstName": "Ann", "id": 12}"#.utf8))  // 12
/// ```
enum WatcherRecordIDScanner {
    /// The positive integer under the top-level `"id"` key, or `nil` when the bytes are not a
    /// JSON object, have no such key, or hold something other than a positive 32-bit integer
    /// there. The key must be spelled without escapes, as the store's writer spells it.
    static func recordID(in data: Data) -> RecordID? {
        data.withUnsafeBytes { buffer in
            var scanner = Scanner(bytes: buffer)
            return scanner.topLevelID()
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func topLevelID() -> RecordID? {
            skipByteOrderMark()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
            index += 1
            var depth = 1
            var expectingKey = true
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let start = index + 1
                    guard let end = endOfString(from: start) else { return nil }
                    index = end + 1
                    if depth == 1 && expectingKey {
                        expectingKey = false
                        if end - start == 2, bytes[start] == UInt8(ascii: "i"), bytes[start + 1] == UInt8(ascii: "d") {
                            return valueAfterColon()
                        }
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    index += 1
                    if depth == 0 { return nil }
                case UInt8(ascii: ","):
                    if depth == 1 { expectingKey = true }
                    index += 1
                default:
                    index += 1
                }
            }
            return nil
        }

        /// The index of the quote that closes a string whose first byte is at `start`.
        private func endOfString(from start: Int) -> Int? {
            var position = start
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""): return position
                default: position += 1
                }
            }
            return nil
        }

        private mutating func valueAfterColon() -> RecordID? {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            var value: Int64 = 0
            var digits = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                index += 1
                if value > Int64(Int32.max) { return nil }
            }
            guard digits > 0, value > 0 else { return nil }
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
                default: break
                }
            }
            return RecordID(Int32(value))
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
                default: return
                }
            }
        }

        private mutating func skipByteOrderMark() {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                index = 3
            }
        }
    }
}
