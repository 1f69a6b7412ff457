import Foundation
import Testing

@testable import PlainContactsDAV

/// The state files' fields are written as they are read back, numbers included.
@Suite struct TabSeparatedFieldsTests {
    @Test(arguments: [0, 7, -7, 1_764_043_200_123_456_789, Int64.max, Int64.min] as [Int64])
    func aNumberReadsBackAsWritten(number: Int64) {
        var bytes: [UInt8] = []
        TabSeparatedFields.append(number, to: &bytes)
        #expect(bytes.first == 0x09)
        #expect(String(decoding: bytes.dropFirst(), as: UTF8.self) == String(number))
        #expect(Int64(String(decoding: bytes.dropFirst(), as: UTF8.self)) == number)
    }

    @Test func theLargestUnsignedNumberIsWrittenWhole() {
        var bytes: [UInt8] = []
        TabSeparatedFields.append(UInt64.max, to: &bytes)
        #expect(String(decoding: bytes.dropFirst(), as: UTF8.self) == String(UInt64.max))
    }

    @Test func aTextFieldIsEscapedAndReadBack() {
        var bytes: [UInt8] = []
        TabSeparatedFields.append("a\tb\\c\nd", to: &bytes)
        #expect(Array(bytes.dropFirst()) == Array("a\\tb\\\\c\\nd".utf8))
        #expect(TabSeparatedFields.unescape(bytes.dropFirst()) == "a\tb\\c\nd")
    }

    @Test(arguments: ["plain", "", "ünïcødé 名前", "vertical\u{0B}tab and form\u{0C}feed", "carriage\rreturn", String(repeating: "x", count: 300)])
    func aTextFieldIsWrittenAsItsEscapeAndReadBack(field: String) {
        var bytes: [UInt8] = [0x41]
        TabSeparatedFields.append(field, to: &bytes)
        #expect(bytes == [0x41, 0x09] + Array(TabSeparatedFields.escape(field).utf8))
        #expect(TabSeparatedFields.unescape(bytes.dropFirst(2)) == field)
    }
}
