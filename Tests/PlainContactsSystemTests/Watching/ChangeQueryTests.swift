import PlainContactsSystem
import Testing

/// The question and answer between a watcher and its clients read back as written, and
/// anything else is no answer.
@Suite struct ChangeQueryTests {
    @Test func questionsReadBack() {
        let token = ChangeToken(instance: 0x9f86_d081_884c_7d65, sequence: 12)
        #expect(ChangeQuery.token(parsing: ChangeQuery.question(since: token)) == .some(token))
        #expect(ChangeQuery.token(parsing: ChangeQuery.question(since: nil)) == .some(nil))
        #expect(ChangeQuery.token(parsing: Array("since 0-1\n".utf8)) == nil)
        #expect(ChangeQuery.token(parsing: Array("hello\n".utf8)) == nil)
    }

    @Test func answersReadBack() {
        let now = ChangeToken(instance: 7, sequence: 3)
        for answer in [
            ChangeJournal.Answer.unknown(now), .changed(now, names: []), .changed(now, names: ["people/a.json", "store.json"]),
        ] {
            #expect(ChangeQuery.answer(parsing: ChangeQuery.bytes(of: answer)) == answer)
        }
    }

    @Test func aTornOrForeignAnswerIsNone() {
        #expect(ChangeQuery.answer(parsing: Array("changed 7-3".utf8)) == nil)
        #expect(ChangeQuery.answer(parsing: Array("maybe 7-3\n".utf8)) == nil)
        #expect(ChangeQuery.answer(parsing: Array("unknown 7-3\npeople/a.json\n".utf8)) == nil)
        #expect(ChangeQuery.answer(parsing: []) == nil)
    }

    @Test func tokensReadBackAndRejectZeroInstances() {
        #expect(ChangeToken(text: "ff-9") == ChangeToken(instance: 255, sequence: 9))
        #expect(ChangeToken(text: ChangeToken(instance: .max, sequence: .max).text) == ChangeToken(instance: .max, sequence: .max))
        #expect(ChangeToken(text: "0-9") == nil)
        #expect(ChangeToken(text: "ff") == nil)
        #expect(ChangeToken(text: "ff-x") == nil)
    }
}
