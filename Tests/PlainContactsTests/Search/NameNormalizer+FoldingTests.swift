import Testing

@testable import PlainContacts

/// The table and ASCII shortcuts must give exactly what the Foundation path gives.
@Suite("NameNormalizer folding")
struct NameNormalizerFoldingTests {
    /// Every scalar in `values`, alone and between neighbours that could interact with it.
    private func expectShortcutAgreesWithFoundation(_ values: some Sequence<UInt32>) {
        for value in values {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in ["\(scalar)", "Ab \(scalar)c", "\(scalar)\(scalar) ", "e\(scalar)\u{301}"] {
                guard let shortcut = NameNormalizer.normalizeWithFoldTable(text) else { continue }
                let expected = NameNormalizer.normalizeWithFoundation(text)
                #expect(shortcut == expected, "U+\(String(value, radix: 16, uppercase: true))")
            }
        }
    }

    @Test func latinGreekAndCyrillicTableAgreesWithFoundation() {
        expectShortcutAgreesWithFoundation(0x80..<0x460)
    }

    @Test func latinExtendedAdditionalAndGreekExtendedTableAgreesWithFoundation() {
        expectShortcutAgreesWithFoundation(0x1E00..<0x2000)
    }

    @Test func kanaAndWhiteSpacePassUnchangedLikeFoundation() {
        expectShortcutAgreesWithFoundation(0x3000..<0x3100)
        expectShortcutAgreesWithFoundation([0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F])
    }

    @Test func hanAndHangulSyllablesPassUnchangedLikeFoundation() {
        expectShortcutAgreesWithFoundation(stride(from: 0x3400, through: 0x4DBF, by: 97))
        expectShortcutAgreesWithFoundation(stride(from: 0x4E00, through: 0x9FFF, by: 97))
        expectShortcutAgreesWithFoundation(stride(from: 0xAC00, through: 0xD7A3, by: 97))
        expectShortcutAgreesWithFoundation([0x9FFF, 0xAC00, 0xD7A3])
    }

    @Test func asciiShortcutAgreesWithFoundation() {
        for text in ["", "  ", "Katie", " KATIE \t bell\n", "O'Brien-Smith", "a\u{1F}b", "\r\nX Y Z\u{0B}"] {
            #expect(NameNormalizer.normalizeASCII(text) == NameNormalizer.normalizeWithFoundation(text))
        }
    }

    @Test(arguments: ["Chloé Dubois", "Иван Иванов", "Nguyễn Thị Minh Khai", "Łukasz Ødegaard", "山田太郎", "송성광", "がっこう ガッコウ"])
    func commonNamesTakeTableShortcut(_ text: String) throws {
        let shortcut = try #require(NameNormalizer.normalizeWithFoldTable(text))
        #expect(shortcut == NameNormalizer.normalizeWithFoundation(text))
    }

    @Test func textWithUncoveredScalarTakesFoundationPath() {
        #expect(NameNormalizer.normalizeWithFoldTable("ｶﾀｶﾅ") == nil)
        #expect(NameNormalizer.normalizeWithFoldTable("Ｋａｔｉｅ") == nil)
        #expect(NameNormalizer.normalizeWithFoldTable("か\u{3099}") == nil)
        #expect(NameNormalizer.normalize("か\u{3099}") == "が")
    }

    @Test func whiteSpaceSetIsUnicodeWhiteSpace() {
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(
                NameNormalizer.isWhiteSpace(scalar) == scalar.properties.isWhitespace,
                "U+\(String(value, radix: 16, uppercase: true))")
        }
    }
}
