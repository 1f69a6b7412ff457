import Synchronization

/// A clock that stands still until a test moves it, for the failure budgets of the server's
/// authenticator.
///
/// ```swift
/// let clock = ManualClock()
/// clock.advance(by: .seconds(1))
/// ```
final class ManualClock: Sendable {
    /// The current instant.
    private let instant = Mutex(ContinuousClock.now)

    /// The instant the clock shows.
    var now: ContinuousClock.Instant { instant.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by duration: Duration) {
        instant.withLock { $0 = $0.advanced(by: duration) }
    }
}
