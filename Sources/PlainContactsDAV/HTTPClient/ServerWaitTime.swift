import Synchronization

/// How long a client waited for its server: the time during which at least one of its
/// requests was in flight (requests sent at once count once), so that what a sync spends of
/// its own is its wall time less this. `contacts sync --json` reports it as `serverSeconds`.
///
/// ```swift
/// let waited = ServerWaitTime()
/// let began = waited.begin()
/// let response = try transport.send(request)
/// waited.end(began)
/// print(waited.seconds)
/// ```
package final class ServerWaitTime: Sendable {
    /// When each request began and ended.
    private let intervals = Mutex<[(start: ContinuousClock.Instant, end: ContinuousClock.Instant)]>([])

    package init() {}

    /// Marks a request sent; give the result to ``end(_:)``.
    func begin() -> ContinuousClock.Instant {
        ContinuousClock.now
    }

    /// Marks a request answered (or failed).
    func end(_ began: ContinuousClock.Instant) {
        record(from: began, to: ContinuousClock.now)
    }

    /// Records a request in flight from `began` to `ended`.
    func record(from began: ContinuousClock.Instant, to ended: ContinuousClock.Instant) {
        intervals.withLock { $0.append((began, ended)) }
    }

    /// The seconds during which a request was in flight.
    package var seconds: Double {
        let intervals = intervals.withLock { $0 }.sorted { $0.start < $1.start }
        var total = Duration.zero
        var current: (start: ContinuousClock.Instant, end: ContinuousClock.Instant)?
        for interval in intervals {
            if let open = current, interval.start <= open.end {
                current = (open.start, max(open.end, interval.end))
            } else {
                if let open = current { total += open.end - open.start }
                current = interval
            }
        }
        if let open = current { total += open.end - open.start }
        return Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
    }
}
