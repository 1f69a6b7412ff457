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
}
