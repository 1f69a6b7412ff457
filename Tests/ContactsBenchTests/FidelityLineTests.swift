import Foundation
import Testing

@testable import contacts_bench

@Suite("Fidelity line")
struct FidelityLineTests {
    @Test func splitsGroupNameParametersAndValue() {
        let line = FidelityLine("item1.TEL;type=CELL:+1 555")
        #expect(line.name == "TEL")
        #expect(line.head == "item1.TEL;type=CELL")
        #expect(line.key.parameters == ["type=cell"])
        #expect(line.key.value == "+1 555")
    }

    @Test func comparesNamesAndParametersCaseInsensitivelyAsASet() {
        let original = FidelityLine("tel;TYPE=HOME;type=Voice:1")
        #expect(original.key == FidelityLine("TEL;TYPE=voice,home:1").key)
        #expect(original.key != FidelityLine("TEL;TYPE=voice,home:2").key)
        #expect(original.key != FidelityLine("TEL;TYPE=voice:1").key)
    }

    @Test func readsBareParametersAsTypesAndPrefAsPrefOne() {
        #expect(FidelityLine("TEL;CELL;PREF:1").key == FidelityLine("TEL;TYPE=cell;PREF=1:1").key)
    }

    @Test func ignoresTheItemGroup() {
        #expect(FidelityLine("item1.EMAIL:a@example.com").key == FidelityLine("item7.EMAIL:a@example.com").key)
    }

    @Test func comparesValuesAfterUnescaping() {
        #expect(FidelityLine(#"NOTE:a\, b\; c\nd\:e\\f\"g"#).key.value == "a, b; c\nd:e\\f\"g")
        #expect(FidelityLine(#"NOTE:a\,b"#).key == FidelityLine("NOTE:a,b").key)
        #expect(FidelityLine(#"NOTE:a\qb"#).key.value == #"a\qb"#)
    }

    @Test func keepsQuotedColonsAndSemicolonsInParameters() {
        let line = FidelityLine(#"ADR;LABEL="1 Main St; Town: 5":;;1 Main St"#)
        #expect(line.key.parameters == [#"label=1 main st; town: 5"#])
        #expect(line.key.value == ";;1 Main St")
    }

    @Test func ignoresTrailingEmptyComponentsOfStructuredValues() {
        #expect(FidelityLine("N:Doe;John;;;").key == FidelityLine("N:Doe;John").key)
        #expect(FidelityLine("NOTE:a;").key != FidelityLine("NOTE:a").key)
    }

    @Test func decodesQuotedPrintableInItsCharset() {
        let utf8 = FidelityLine("N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;Hans")
        #expect(utf8.key == FidelityLine("N:Müller;Hans").key)
        let latin1 = FidelityLine("NOTE;QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Gr=FC=DFe=0D=0Ax = y")
        #expect(latin1.key == FidelityLine(#"NOTE:Grüße\nx = y"#).key)
    }

    @Test func comparesBase64AndDataURIsByTheirBytes() {
        let v21 = FidelityLine("PHOTO;ENCODING=BASE64;TYPE=JPEG:AQID BA==")
        #expect(v21.key == FidelityLine("PHOTO;ENCODING=b;TYPE=jpeg:AQIDBA==").key)
        #expect(v21.key == FidelityLine("PHOTO:data:image/jpeg;base64,AQIDBA==").key)
        #expect(v21.key != FidelityLine("PHOTO;ENCODING=b;TYPE=JPEG:AQIDBQ==").key)
    }

    @Test func readsALineWithoutAColonAsAllName() {
        let line = FidelityLine("garbage")
        #expect(line.name == "GARBAGE")
        #expect(line.key.value.isEmpty)
    }

    @Test func hidesParameterValuesThatMayHoldPersonalData() {
        let line = FidelityLine(#"item2.ADR;TYPE=home;LABEL="1 Main St";SORT-AS=Doe:;;1 Main St"#)
        #expect(line.redactedHead == "item2.ADR;TYPE=home;LABEL=…;SORT-AS=…")
    }
}
