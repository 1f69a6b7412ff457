#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The fields of a form or a query string (`application/x-www-form-urlencoded`): names and
/// values percent-decoded, `+` read as a space, the first of repeated names kept by
/// ``subscript(_:)``. A form sent as `multipart/form-data` (``WebMultipart``) gives its text
/// fields the same way and its files in ``files``.
///
/// ```swift
/// let form = WebForm("q=katie+b%C3%A9ll&book=family")
/// form["q"]   // "katie béll"
/// ```
struct WebForm: Sendable, Equatable {
    /// The name of the field that carries the token of the signed-in user's session.
    static let tokenField = "token"

    /// The fields in order.
    private(set) var fields: [(name: String, value: String)]
    /// The files of a multipart form, by field name (the first file of each name).
    private(set) var files: [String: WebMultipart.Part] = [:]

    /// The most a form's body may hold: a photo or a book's file to import.
    static let maximumBodySize = 8 * 1024 * 1024

    /// The fields of `text`; a pair that does not decode as UTF-8 is left out.
    init(_ text: String?) {
        fields = []
        guard let text else { return }
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decoded(parts[0]), let value = Self.decoded(parts.count > 1 ? parts[1] : "") else { continue }
            fields.append((name, value))
        }
    }

    /// The fields of a request's body: multipart when `contentType` says so (its parts with a
    /// file name are files, the others text fields), else URL-encoded.
    init(body: Data, contentType: String?) {
        guard let contentType, let parts = WebMultipart.parts(of: body, contentType: contentType) else {
            self.init(String(decoding: body, as: UTF8.self))
            return
        }
        self.init(nil)
        for part in parts {
            if part.fileName != nil {
                if files[part.name] == nil { files[part.name] = part }
            } else if let value = String(validating: part.data, as: UTF8.self) {
                fields.append((part.name, value))
            }
        }
    }

    /// The value of the first field named `name`.
    subscript(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    static func == (lhs: WebForm, rhs: WebForm) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value } && lhs.files == rhs.files
    }

    /// `text` percent-decoded with `+` as a space; `nil` for a bad escape or bytes that are
    /// not UTF-8.
    static func decoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` percent-encoded for a query string or a path segment: letters, digits and
    /// `-._~` as they are.
    static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                result += "%"
                result.unicodeScalars.append(digits[Int(byte >> 4)])
                result.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
