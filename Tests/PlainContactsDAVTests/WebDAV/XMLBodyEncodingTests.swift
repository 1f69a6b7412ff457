import Foundation
import Testing
@testable import PlainContactsDAV

@Suite struct XMLBodyEncodingTests {
    private func utf8(_ bytes: [UInt8]) throws -> [UInt8] {
        try XMLBodyEncoding.utf8(of: Data(bytes))
    }

    private func refusal(_ bytes: [UInt8]) -> String? {
        do throws(WebDAVXML.Refusal) {
            _ = try XMLBodyEncoding.utf8(of: Data(bytes))
            return nil
        } catch {
            return error.message
        }
    }

    @Test func utf8IsReturnedAsItIsAndAByteOrderMarkIsDropped() throws {
        let body = Array("<a>é 日本 😀</a>".utf8)
        #expect(try utf8(body) == body)
        #expect(try utf8([0xEF, 0xBB, 0xBF] + body) == body)
    }

    @Test(arguments: [
        [0xFF], [0xFE], [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3], [0xF5, 0x80, 0x80, 0x80],
    ] as [[UInt8]])
    func bytesThatAreNotUTF8AreRefusedWithTheirLine(_ bad: [UInt8]) {
        let body = Array("<?xml version=\"1.0\"?>\n<d:propfind xmlns:d=\"DAV:\">\n<d:prop><d:".utf8) + bad
            + Array("/></d:prop></d:propfind>".utf8)
        let message = refusal(body)
        #expect(message?.contains("not valid UTF-8") == true)
        #expect(message?.contains("line 3") == true)
    }

    @Test(arguments: [[0x01], [0x00], [0x1B], [0x0B], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF]] as [[UInt8]])
    func charactersXMLDoesNotAllowAreRefused(_ bad: [UInt8]) {
        #expect(refusal(Array("<a>".utf8) + bad + Array("</a>".utf8)) != nil)
    }

    @Test func utf16WithAByteOrderMarkIsReadInEitherOrder() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a>é 😀</a>"
        let units = Array(text.utf16)
        let big: [UInt8] = [0xFE, 0xFF] + units.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let little: [UInt8] = [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try utf8(big) == Array(text.utf8))
        #expect(try utf8(little) == Array(text.utf8))
        // A lone surrogate is not UTF-16.
        #expect(refusal([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x3E, 0x00]) != nil)
        #expect(refusal([0xFF, 0xFE, 0x3C]) != nil)
    }

    @Test func aDeclaredSingleByteEncodingIsReadAsThatEncoding() throws {
        let latin = Array("<?xml version='1.0' encoding='ISO-8859-1'?><a>".utf8) + [0xE9, 0x80] + Array("</a>".utf8)
        let windows = Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><a>".utf8) + [0xE9, 0x80] + Array("</a>".utf8)
        #expect(String(decoding: try utf8(latin), as: UTF8.self).hasSuffix("<a>é\u{80}</a>"))
        #expect(String(decoding: try utf8(windows), as: UTF8.self).hasSuffix("<a>é€</a>"))
    }

    @Test func asciiMustBeASCII() throws {
        let body = Array("<?xml version=\"1.0\" encoding=\"US-ASCII\"?><a>".utf8) + [0xC3, 0xA9] + Array("</a>".utf8)
        #expect(refusal(body)?.contains("US-ASCII") == true)
        let ascii = Array("<?xml version=\"1.0\" encoding=\"us-ascii\"?><a/>".utf8)
        #expect(try utf8(ascii) == ascii)
    }

    @Test func anEncodingNotReadHereIsRefusedByAPrintableName() {
        let ebcdic = refusal(Array("<?xml version=\"1.0\" encoding=\"EBCDIC-US\"?><a/>".utf8))
        let garbled = refusal(Array("<?xml version=\"1.0\" encoding=\"x".utf8) + [0xFF, 0x00] + Array("\"?><a/>".utf8))
        let utf16WithoutMark = refusal(Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>".utf8))
        #expect(ebcdic?.contains("\"EBCDIC-US\"") == true)
        #expect(garbled?.contains("\"x??\"") == true)
        #expect(utf16WithoutMark?.contains("UTF-16") == true)
    }
}
