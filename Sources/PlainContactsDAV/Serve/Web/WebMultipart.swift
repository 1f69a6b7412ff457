#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parts of a `multipart/form-data` body (RFC 7578), as a browser sends a form with a file:
/// each part's field name, its file name and media type when it is a file, and its bytes.
///
/// The reading is lenient, as browsers and tools differ: lines may end in CRLF or LF alone,
/// the boundary may be quoted, header names are matched in any case, a part without a name is
/// left out, and a body whose closing delimiter is missing ends with its last part.
///
/// ```swift
/// let parts = WebMultipart.parts(of: body, contentType: "multipart/form-data; boundary=x")
/// parts?.first?.name       // "photo"
/// parts?.first?.fileName   // "katie.jpg"
/// ```
enum WebMultipart {
    /// One part of the body.
    struct Part: Sendable, Hashable {
        /// The field's name (`name` of its `Content-Disposition`).
        var name: String
        /// The file's name as the browser gave it; `nil` for a field that is not a file.
        var fileName: String?
        /// The part's `Content-Type`, when it has one.
        var type: String?
        /// The bytes.
        var data: Data
    }

    /// The boundary of a `multipart/form-data` media type; `nil` for any other type.
    static func boundary(of contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The parts of `body` sent as `contentType`; `nil` when the type is not
    /// `multipart/form-data` with a boundary, or the body holds no delimiter.
    static func parts(of body: Data, contentType: String) -> [Part]? {
        guard let boundary = boundary(of: contentType) else { return nil }
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        var starts = ranges(of: delimiter, in: bytes)
        guard !starts.isEmpty else { return nil }
        starts.append(bytes.count..<bytes.count)
        var parts: [Part] = []
        for (current, next) in zip(starts, starts.dropFirst()) {
            var start = current.upperBound
            // The closing delimiter is followed by `--`.
            if bytes[start...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { break }
            start = afterLineEnd(bytes, from: start)
            var end = next.lowerBound
            // The line end before the next delimiter belongs to the delimiter.
            if end > start, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if let part = part(bytes[start..<max(start, end)]) { parts.append(part) }
        }
        return parts
    }

    /// One part: its header lines up to a blank line, then its bytes.
    private static func part(_ bytes: ArraySlice<UInt8>) -> Part? {
        var headers: [(String, String)] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var line = bytes[index..<lineEnd]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            index = min(lineEnd + 1, bytes.endIndex)
            if line.isEmpty { break }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            headers.append((text[..<colon].trimmingCharacters(in: .whitespaces).lowercased(), text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        guard let disposition = headers.first(where: { $0.0 == "content-disposition" })?.1 else { return nil }
        let parameters = Self.parameters(of: disposition)
        guard let name = parameters["name"] else { return nil }
        let type = headers.first { $0.0 == "content-type" }?.1
        return Part(name: name, fileName: parameters["filename"], type: type, data: Data(bytes[index..<bytes.endIndex]))
    }

    /// The `key=value` parameters of a `Content-Disposition`, values unquoted (`\"` read as
    /// `"`), keys in lower case.
    static func parameters(of header: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(header)
        // The disposition type (`form-data`) comes first.
        if let semicolon = rest.firstIndex(of: ";") { rest = rest[rest.index(after: semicolon)...] } else { return result }
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == ";" || $0 == "\t" }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        value.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            if result[key] == nil { result[key] = value }
        }
        return result
    }

    /// Where `pattern` starts at the beginning of a line of `bytes` (the first, or after LF).
    private static func ranges(of pattern: [UInt8], in bytes: [UInt8]) -> [Range<Int>] {
        guard let first = pattern.first, bytes.count >= pattern.count else { return [] }
        var found: [Range<Int>] = []
        var index = 0
        let last = bytes.count - pattern.count
        while index <= last {
            if bytes[index] == first, index == 0 || bytes[index - 1] == UInt8(ascii: "\n"),
                bytes[index..<index + pattern.count].elementsEqual(pattern)
            {
                found.append(index..<index + pattern.count)
                index += pattern.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// The index after the end of the line that `start` is on.
    private static func afterLineEnd(_ bytes: [UInt8], from start: Int) -> Int {
        guard let lineEnd = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return bytes.count }
        return lineEnd + 1
    }
}
