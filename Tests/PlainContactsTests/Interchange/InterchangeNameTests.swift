import Testing
@testable import PlainContacts

@Suite struct InterchangeNameTests {
    private func split(_ name: String) -> String {
        let parts = InterchangeName.parts(of: name)
        return "\(parts.first)|\(parts.last)|\(parts.shown)"
    }

    @Test func lastCommaFirstIsSplitAndShownFirstNameFirst() {
        #expect(split("Bell, Katie") == "Katie|Bell|Katie Bell")
        #expect(split("  van der Berg ,  Mary Ann ") == "Mary Ann|van der Berg|Mary Ann van der Berg")
    }

    @Test func twoWordsAreFirstAndLast() {
        #expect(split("Katie Bell") == "Katie|Bell|Katie Bell")
    }

    @Test func anythingElseIsShownWhole() {
        #expect(split("Katie") == "||Katie")
        #expect(split("Mary Ann van Berg") == "||Mary Ann van Berg")
        #expect(split("Bell, Katie, PhD") == "||Bell, Katie, PhD")
        #expect(split(", Katie") == "||, Katie")
        #expect(split("Katie Bell,") == "||Katie Bell,")
        #expect(split("") == "||")
    }
}
