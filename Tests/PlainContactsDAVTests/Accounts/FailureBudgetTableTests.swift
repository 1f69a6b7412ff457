import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct FailureBudgetTableTests {
    /// A table whose clients may each fail once per second.
    private static func table(maximumClients: Int = FailureBudgetTable.standardMaximumClients) -> FailureBudgetTable {
        FailureBudgetTable(template: FailureBudget(capacity: 1, refillPerSecond: 1), maximumClients: maximumClients)
    }

    /// Takes a token for each client in turn at `instant`, returning which takes succeeded.
    private static func takes(_ table: inout FailureBudgetTable, _ clients: [String], at instant: ContinuousClock.Instant)
        -> [Bool]
    {
        clients.map { table.take(for: $0, at: instant) }
    }

    @Test func eachClientHasItsOwnBudget() {
        var table = Self.table()

        #expect(Self.takes(&table, ["192.0.2.1", "192.0.2.1", "192.0.2.2"], at: .now) == [true, false, true])
    }

    @Test func refundGoesToTheClientsBudget() {
        var table = Self.table()
        let now = ContinuousClock.now
        let first = Self.takes(&table, ["192.0.2.1"], at: now)
        table.refund(for: "192.0.2.1")

        #expect(first + Self.takes(&table, ["192.0.2.1", "192.0.2.1"], at: now) == [true, true, false])
    }

    @Test func clientsBeyondTheTableShareOneBudget() {
        var table = Self.table(maximumClients: 2)

        #expect(Self.takes(&table, ["a", "b", "c", "d", "a"], at: .now) == [true, true, true, false, false])
    }

    @Test func aFullTableIsSearchedForRoomAtMostOncePerInterval() {
        var table = FailureBudgetTable(template: FailureBudget(capacity: 3, refillPerSecond: 10), maximumClients: 1)
        let start = ContinuousClock.now
        // a is in the table; b finds it full, searches it (a is in use) and spends the overflow.
        let first = Self.takes(&table, ["a", "b", "b", "b"], at: start)
        // 150 ms later a is full again, but the table was searched at the start: c shares the
        // overflow budget, which holds 1.5 tokens, rather than taking a's place.
        let soon = Self.takes(&table, ["c", "c"], at: start + .milliseconds(150))
        let later = Self.takes(&table, ["d", "d"], at: start + FailureBudgetTable.sweepInterval)

        #expect(first == [true, true, true, true])
        #expect(soon == [true, false])
        #expect(later == [true, true])
    }

    @Test func refilledBudgetsMakeRoomForNewClients() {
        var table = Self.table(maximumClients: 2)
        let start = ContinuousClock.now
        let before = Self.takes(&table, ["a", "b", "c"], at: start)
        // A second later a and b are full again: they are dropped, and d and e get their own.
        let after = Self.takes(&table, ["d", "e", "d"], at: start + .seconds(1))

        #expect(before == [true, true, true])
        #expect(after == [true, true, false])
    }
}
