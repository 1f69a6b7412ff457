import Testing

@testable import PlainContacts

@Suite("VCardCharsetGuess")
struct VCardCharsetGuessTests {
    private func guess(_ bytes: [UInt8]) -> VCardCharsetGuess {
        bytes.withUnsafeBufferPointer { VCardCharsetGuess.guess($0) }
    }

    @Test("accented Latin letters among ASCII ones are windows-1252, smart quotes included")
    func western() {
        #expect(guess([0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72]) == .windows1252)  // Müller
        #expect(guess([0x93, 0x48, 0x69, 0x94]) == .windows1252)  // “Hi”
        #expect(guess([0x63, 0x61, 0x66, 0xE9]) == .windows1252)  // café
    }

    @Test("whole words above 0xC0 are Cyrillic or Greek by their frequent letters")
    func cyrillicAndGreek() {
        #expect(guess([0xC8, 0xE2, 0xE0, 0xED]) == .windows1251)  // Иван
        #expect(guess([0xCF, 0xB8, 0xF2, 0xF0]) == .windows1251)  // Пётр, no telling letter: Cyrillic
        #expect(guess([0xC3, 0xE9, 0xFE, 0xF1, 0xE3, 0xEF, 0xF2]) == .windows1253)  // Γιώργος
    }

    @Test("pairs led by 0x81 to 0x9F are Shift_JIS")
    func shiftJIS() {
        #expect(guess([0x8E, 0x52, 0x93, 0x63]) == .shiftJIS)  // 山田
        #expect(guess([0x93, 0xFA, 0x96, 0x7B]) == .shiftJIS)  // 日本
    }

    @Test("UTF-16 in either byte order becomes UTF-8, surrogate pairs included")
    func utf16() {
        #expect(VCardCharset.utf8(fromUTF16: [0xFF, 0xFE, 0x41, 0x00, 0x3D, 0xD8, 0x00, 0xDE][...]) == Array("A😀".utf8))
        #expect(VCardCharset.utf8(fromUTF16: [0xFE, 0xFF, 0x00, 0x41, 0x04][...]) == Array("A".utf8))
        #expect(VCardCharset.utf8(fromUTF16: [0xFF][...]) == [])
    }
}
