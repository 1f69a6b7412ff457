/// A token bucket that bounds how many password verifications of one client may fail per
/// second, so that one client guessing passwords or user names gets few guesses and little
/// CPU.
///
/// Each full verification takes a token before it derives and gives it back when the password
/// was right, so only failures use the budget up. Tokens come back at ``refillPerSecond``, up
/// to ``capacity``.
///
/// ```swift
/// var budget = FailureBudget(capacity: 2, refillPerSecond: 1)
/// let start = ContinuousClock.now
/// budget.take(at: start)                       // true
/// budget.take(at: start)                       // true
/// budget.take(at: start)                       // false: two failures already
/// budget.take(at: start + .seconds(1))         // true: one token came back
/// ```
struct FailureBudget: Sendable {
    /// The burst allowed by default: five failures in a row, so that a user mistyping a
    /// password a few times, or a phone trying an old password before the new one, is not
    /// turned away.
    static let standardCapacity = 5
    /// The sustained rate allowed by default: one failure every two seconds, some 7% of one
    /// core at about 150 ms per verification, and 43,200 guesses a day at most.
    static let standardRefillPerSecond = 0.5

    /// The most tokens the bucket holds, and so the largest burst.
    let capacity: Int
    /// How many tokens come back per second.
    let refillPerSecond: Double
    /// The tokens available now; starts full.
    private(set) var tokens: Double
    /// When ``tokens`` was last brought up to date.
    private var updatedAt: ContinuousClock.Instant?

    /// Creates a full bucket.
    ///
    /// ```swift
    /// let budget = FailureBudget()  // 5 at once, then one every two seconds
    /// ```
    init(capacity: Int = standardCapacity, refillPerSecond: Double = standardRefillPerSecond) {
        precondition(capacity >= 1 && refillPerSecond > 0, "a failure budget lets at least one verification through")
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
        self.tokens = Double(capacity)
    }

    /// Takes one token for a verification starting at `now`; returns `false`, taking nothing,
    /// when the budget is spent.
    ///
    /// ```swift
    /// guard budget.take(at: .now) else { return .refused(.throttled) }
    /// ```
    mutating func take(at now: ContinuousClock.Instant) -> Bool {
        tokens = tokens(at: now)
        if updatedAt.map({ now > $0 }) ?? true {
            updatedAt = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Whether the bucket will have filled up again by `now`, so that it is no different from
    /// a new one.
    ///
    /// ```swift
    /// budget.isFull(at: .now)
    /// ```
    func isFull(at now: ContinuousClock.Instant) -> Bool {
        tokens(at: now) >= Double(capacity)
    }

    /// The tokens there will be at `now`, with those that came back since ``updatedAt``.
    private func tokens(at now: ContinuousClock.Instant) -> Double {
        guard let updatedAt, now > updatedAt else { return tokens }
        let elapsed = updatedAt.duration(to: now) / .seconds(1)
        return min(Double(capacity), tokens + elapsed * refillPerSecond)
    }

    /// Gives back the token of a verification that succeeded.
    ///
    /// ```swift
    /// if verified { budget.refund() }
    /// ```
    mutating func refund() {
        tokens = min(Double(capacity), tokens + 1)
    }
}
