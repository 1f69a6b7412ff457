import Testing
@testable import PlainContacts

@Suite struct EncodedWordsTests {
    @Test func qAndBWordsInAnyKnownCharsetAreDecoded() {
        #expect(EncodedWords.decode("=?UTF-8?Q?Zo=C3=AB?= Smith") == "Zoë Smith")
        #expect(EncodedWords.decode("=?utf-8?b?Wm/Dqw==?=") == "Zoë")
        #expect(EncodedWords.decode("=?ISO-8859-1?Q?Andr=E9?=") == "André")
        #expect(EncodedWords.decode("=?UTF-8*en?Q?Katie_Bell?=") == "Katie Bell")
    }

    @Test func spaceBetweenEncodedWordsIsDroppedButKeptBesidePlainText() {
        #expect(EncodedWords.decode("=?UTF-8?Q?Zo=C3=AB?= =?UTF-8?Q?_=C3=85ngstr=C3=B6m?=") == "Zoë Ångström")
        #expect(EncodedWords.decode("Dr. =?UTF-8?Q?Zo=C3=AB?= Bell") == "Dr. Zoë Bell")
    }

    @Test func malformedWordsAreLeftAsWritten() {
        #expect(EncodedWords.decode("=?UTF-8?X?abc?=") == "=?UTF-8?X?abc?=")
        #expect(EncodedWords.decode("=?UTF-8?Q?Zo=C?=") == "=?UTF-8?Q?Zo=C?=")
        #expect(EncodedWords.decode("=?NO-SUCH-CHARSET?Q?abc?=") == "=?NO-SUCH-CHARSET?Q?abc?=")
        #expect(EncodedWords.decode("=?UTF-8?Q?unterminated") == "=?UTF-8?Q?unterminated")
        #expect(EncodedWords.decode("plain text") == "plain text")
    }
}
