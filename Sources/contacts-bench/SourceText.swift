import Foundation

/// The text of an export, decoded by the import fidelity measure itself: UTF-8 with or without
/// a byte order mark, UTF-16 with one, Shift_JIS when it reads as Japanese, else Windows-1252.
///
/// ```swift
/// let text = SourceText.decode(try Data(contentsOf: url))
/// ```
enum SourceText {
    /// The text of `data`.
    static func decode(_ data: Data) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]),
            let text = String(data: data, encoding: .utf16)
        {
            return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        }
        if let text = String(bytes: bytes, encoding: .utf8) { return text }
        if let text = String(data: data, encoding: .shiftJIS), text.unicodeScalars.contains(where: isKana) {
            return text
        }
        return String(data: data, encoding: .windowsCP1252) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// Hiragana and katakana, which Japanese text has and text in other charsets misread as
    /// Shift_JIS rarely does.
    private static func isKana(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(scalar.value)
    }

    /// The lines of `text` (CR LF, LF or CR ends), numbered from 1.
    static func lines(_ text: String) -> [(number: Int, text: String)] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .enumerated().map { ($0.offset + 1, String($0.element)) }
    }
}
