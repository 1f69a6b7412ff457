import Testing

@testable import contacts_bench

@Suite("Quoted-printable text")
struct QuotedPrintableTextTests {
    @Test func decodesInTheCharsetsTheFixturesName() {
        #expect(QuotedPrintableText.decode("M=C3=BCller", charset: nil) == "Müller")
        #expect(QuotedPrintableText.decode("Stra=DFe", charset: "iso-8859-1") == "Straße")
        #expect(QuotedPrintableText.decode("=CF=F0=E8", charset: "windows-1251") == "При")
        #expect(QuotedPrintableText.decode("A=E8=DE=EDa", charset: "windows-1253") == "Aθήνa")
    }

    @Test func keepsAnEqualsSignWithoutTwoHexDigits() {
        #expect(QuotedPrintableText.decode("a=3Db=", charset: nil) == "a=b=")
    }
}
