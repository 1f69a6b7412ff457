import Foundation
import Testing

@testable import PlainContactsDAV

/// The time a client waited counts the time any request was in flight, once.
@Suite struct ServerWaitTimeTests {
    @Test func overlappingRequestsCountOnceAndGapsNotAtAll() {
        let waited = ServerWaitTime()
        let start = ContinuousClock.now
        // Recorded out of order, as concurrent requests end: 0–1 s and 0.5–2 s overlap, then
        // a gap, then 3–3.5 s.
        waited.record(from: start + .milliseconds(500), to: start + .seconds(2))
        waited.record(from: start + .seconds(3), to: start + .milliseconds(3500))
        waited.record(from: start, to: start + .seconds(1))
        #expect(abs(waited.seconds - 2.5) < 1e-9)
    }

    @Test func noRequestIsNoWait() {
        #expect(ServerWaitTime().seconds == 0)
    }
}
