import Testing

@testable import PlainContacts

@Suite("VCardBase64")
struct VCardBase64Tests {
    @Test(
        "cleaning keeps valid text, pads it, and removes stray characters",
        arguments: [
            ("QUJD", "QUJD", 0), ("QUI", "QUI=", 0), ("QQ", "QQ==", 0), ("QUI=", "QUI=", 0),
            ("QUJD====", "QUJD", 0), ("QU*JD!", "QUJD", 2), ("QU=JD", "QUJD", 1), ("QUJDR", "QUJD", 1),
            ("", "", 0),
        ])
    func cleaned(_ input: String, _ expected: String, _ removed: Int) {
        let result = VCardBase64.cleaned(Array(input.utf8)[...])
        #expect(String(decoding: result.text, as: UTF8.self) == expected)
        #expect(result.removed == removed)
    }

    @Test("a data: URI is told by its scheme and its base64 marking, in any case")
    func dataURI() {
        #expect(VCardBase64.isDataURI(Array("DATA:image/png;base64,QUJD".utf8)))
        #expect(!VCardBase64.isDataURI(Array("https://example.com/a.png".utf8)))
        #expect(VCardBase64.declaresBase64(Array("data:image/png;BASE64".utf8)[...]))
        #expect(!VCardBase64.declaresBase64(Array("data:text/plain".utf8)[...]))
    }
}
