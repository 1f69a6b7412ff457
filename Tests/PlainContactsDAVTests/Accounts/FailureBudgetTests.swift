import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct FailureBudgetTests {
    /// Takes a token at each offset from `start`, returning which takes succeeded.
    static func takes(_ budget: inout FailureBudget, from start: ContinuousClock.Instant, at offsets: [Duration]) -> [Bool] {
        offsets.map { budget.take(at: start + $0) }
    }

    @Test func burstUpToCapacityThenRefuses() {
        var budget = FailureBudget(capacity: 3, refillPerSecond: 1)
        let results = Self.takes(&budget, from: .now, at: [.zero, .zero, .zero, .zero])
        #expect(results == [true, true, true, false])
    }

    @Test func tokensComeBackAtTheRefillRate() {
        var budget = FailureBudget(capacity: 2, refillPerSecond: 2)
        let results = Self.takes(
            &budget, from: .now,
            at: [.zero, .zero, .milliseconds(400), .milliseconds(500), .milliseconds(500), .seconds(10), .seconds(10), .seconds(10)])
        #expect(results == [true, true, false, true, false, true, true, false])
    }

    @Test func refundGivesBackOneTokenUpToCapacity() {
        var budget = FailureBudget(capacity: 1, refillPerSecond: 1)
        let start = ContinuousClock.now
        let first = budget.take(at: start)
        budget.refund()
        budget.refund()
        #expect(first)
        #expect(budget.tokens == 1)
    }

    @Test func clockGoingBackwardsAddsNothing() {
        var budget = FailureBudget(capacity: 1, refillPerSecond: 1)
        let results = Self.takes(&budget, from: .now, at: [.zero, .seconds(-5), .milliseconds(900), .seconds(1)])
        #expect(results == [true, false, false, true])
    }

    @Test func aBudgetIsFullAgainOnceEveryTokenCameBack() {
        var budget = FailureBudget(capacity: 2, refillPerSecond: 1)
        let start = ContinuousClock.now
        #expect(budget.isFull(at: start))
        #expect(Self.takes(&budget, from: start, at: [.zero]) == [true])
        #expect(!budget.isFull(at: start + .milliseconds(900)))
        #expect(budget.isFull(at: start + .seconds(1)))
    }
}
