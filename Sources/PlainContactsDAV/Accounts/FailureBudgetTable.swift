/// The failure budgets of many clients, one ``FailureBudget`` per client (the server keys them
/// by the client's address, and by user name and address), in a table of bounded size.
///
/// A client never seen, or whose budget has filled up again, starts from a full budget. When
/// the table holds ``maximumClients`` budgets that are all in use, clients not in it share one
/// overflow budget, so that an attacker using ever new addresses cannot grow the table. The
/// budgets that filled up again are dropped when a new client finds the table full, at most
/// once per ``sweepInterval``: a full table of budgets in use costs one pass over it per
/// interval, not one per request.
///
/// ```swift
/// var table = FailureBudgetTable()
/// if table.take(for: "192.0.2.7", at: .now) {
///     // verify the password; if it was right:
///     table.refund(for: "192.0.2.7")
/// }
/// ```
struct FailureBudgetTable: Sendable {
    /// The most clients tracked by default: far more than the clients of one store, a few
    /// hundred kilobytes at most.
    static let standardMaximumClients = 4_096
    /// How often a full table is searched for budgets that filled up again: once a second
    /// bounds the work of a flood of new clients to 4,096 checks a second.
    static let sweepInterval = Duration.seconds(1)

    /// The budget every client starts with.
    let template: FailureBudget
    /// The most clients tracked one by one.
    let maximumClients: Int
    /// The budget of each tracked client.
    private var budgets: [String: FailureBudget] = [:]
    /// The budget shared by clients that did not fit in the table.
    private var overflow: FailureBudget
    /// When a full table may next be searched for budgets to drop; `nil` before the first search.
    private var nextSweep: ContinuousClock.Instant?

    /// An empty table whose clients start with `template`.
    ///
    /// ```swift
    /// let table = FailureBudgetTable(template: FailureBudget(capacity: 3, refillPerSecond: 1))
    /// ```
    init(template: FailureBudget = FailureBudget(), maximumClients: Int = standardMaximumClients) {
        precondition(maximumClients >= 1, "a failure budget table tracks at least one client")
        self.template = template
        self.maximumClients = maximumClients
        self.overflow = template
    }

    /// Takes one token from `client`'s budget for a verification starting at `now`; returns
    /// `false`, taking nothing, when it is spent.
    ///
    /// ```swift
    /// guard table.take(for: client, at: now) else { return .refused(.throttled) }
    /// ```
    mutating func take(for client: String, at now: ContinuousClock.Instant) -> Bool {
        if budgets[client] == nil, budgets.count >= maximumClients {
            if nextSweep.map({ now >= $0 }) ?? true {
                budgets = budgets.filter { !$0.value.isFull(at: now) }
                nextSweep = now + Self.sweepInterval
            }
            if budgets.count >= maximumClients {
                return overflow.take(at: now)
            }
        }
        let fresh = template
        return budgets[client, default: fresh].take(at: now)
    }

    /// Gives back the token of `client`'s verification that succeeded.
    ///
    /// ```swift
    /// table.refund(for: client)
    /// ```
    mutating func refund(for client: String) {
        if budgets[client] != nil {
            budgets[client]?.refund()
        } else {
            overflow.refund()
        }
    }
}
