import Foundation
import Testing

@testable import PlainContacts

/// What a person's record keeps of its card besides its properties.
@Suite struct PersonKeptCardFieldsTests {
    @Test func theStoredUIDAndTheKeptLinesExportWritesAsTheyAre() {
        var state = PersonState()
        VCardRecordFields.setUID("d69c71e5-6a4f-4e53-9b61-0f5a2d5c1e77", in: &state)
        VCardRecordFields.setLines(
            [
                "X-MAIDENNAME:Bell", "item1.FN:Katie B.", "bday;value=date:1987-04-12", "item2.X-ABLABEL:school",
                "UID:urn:uuid:other", "X-PHONETIC-FIRST-NAME:Kay-tee",
            ], in: &state)
        let kept = Person(state: state).keptCardFields
        #expect(kept.uid == "d69c71e5-6a4f-4e53-9b61-0f5a2d5c1e77")
        #expect(kept.lines == ["X-MAIDENNAME:Bell", "item2.X-ABLABEL:school"])
    }

    @Test func aPersonWithoutACardKeepsNothing() {
        let kept = Person().keptCardFields
        #expect(kept.uid == nil)
        #expect(kept.lines.isEmpty)
    }
}
