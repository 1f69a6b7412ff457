import PlainContactsSystem
import Testing

/// A watcher's record answers exactly the names changed since a token of its own instance,
/// and "unknown" whenever it cannot.
@Suite struct ChangeJournalTests {
    @Test func namesChangedSinceATokenAreAnsweredSortedAndOnce() {
        var journal = ChangeJournal()
        let start = journal.now
        journal.record(["people/b.json", "people/a.json"])
        let middle = journal.now
        journal.record(["people/a.json", "groups/g.json"])
        #expect(journal.answer(since: start) == .changed(journal.now, names: ["groups/g.json", "people/a.json", "people/b.json"]))
        #expect(journal.answer(since: middle) == .changed(journal.now, names: ["groups/g.json", "people/a.json"]))
        #expect(journal.answer(since: journal.now) == .changed(journal.now, names: []))
    }

    @Test func anEmptyBatchDoesNotMoveTheToken() {
        var journal = ChangeJournal()
        let start = journal.now
        journal.record([String]())
        #expect(journal.now == start)
    }

    @Test func noTokenAnotherInstanceOrAFutureTokenIsUnknown() {
        var journal = ChangeJournal()
        journal.record(["people/a.json"])
        let now = journal.now
        #expect(journal.answer(since: nil) == .unknown(now))
        #expect(journal.answer(since: ChangeToken(instance: now.instance &+ 1, sequence: 0)) == .unknown(now))
        #expect(journal.answer(since: ChangeToken(instance: now.instance, sequence: now.sequence + 1)) == .unknown(now))
    }

    @Test func startingOverOrOutgrowingTheCapacityMakesEarlierTokensUnknown() {
        var journal = ChangeJournal(capacity: 2)
        let start = journal.now
        journal.record(["a", "b"])
        #expect(journal.answer(since: start) == .changed(journal.now, names: ["a", "b"]))
        journal.record(["c"])
        #expect(journal.now.instance != start.instance)
        #expect(journal.answer(since: start) == .unknown(journal.now))
        let before = journal.now
        journal.startOver()
        #expect(journal.answer(since: before) == .unknown(journal.now))
    }

    @Test func aNameAnAnswerCannotCarryStartsOver() {
        var journal = ChangeJournal()
        let start = journal.now
        journal.record(["people/a\nb.json"])
        #expect(journal.answer(since: start) == .unknown(journal.now))
    }
}
