import Testing
@testable import PlainContactsDAV

/// Which connections hold a server's slots and which is dropped for a new one, decided
/// without sockets.
@Suite struct HTTPServerSlotTableTests {
    /// An instant `seconds` after a fixed start, so that ages are exact.
    private static let start = ContinuousClock.now
    private func at(_ seconds: Int) -> ContinuousClock.Instant {
        Self.start + .seconds(seconds)
    }

    /// Admits a connection that must get a slot, and returns its identifier.
    private func admit(
        _ table: inout HTTPServerSlotTable, from address: String = "127.0.0.1", counted: Bool = false, at seconds: Int
    ) throws -> Int {
        let admission = table.admit(peerAddress: address, isCountedPerAddress: counted, descriptor: -1, at: at(seconds))
        if case .admitted(let id) = admission { return id }
        return try #require(nil as Int?, "not admitted: \(admission)")
    }

    /// Has a connection answer a request for `holder` and go idle at `seconds`.
    private func answer(_ table: inout HTTPServerSlotTable, _ id: Int, for holder: String = "127.0.0.1", at seconds: Int) {
        let leftIdle = table.leaveIdle(id)
        #expect(leftIdle)
        table.enterIdle(id, holder: holder, at: at(seconds))
    }

    @Test func admitsUpToTheLimitThenIsFull() throws {
        var table = HTTPServerSlotTable(maxConnections: 2, maxConnectionsPerAddress: 1)
        _ = try admit(&table, at: 0)
        _ = try admit(&table, at: 1)
        let admission = table.admit(peerAddress: "127.0.0.1", isCountedPerAddress: false, descriptor: -1, at: at(2))
        #expect(admission == .full)
        #expect(table.entries.count == 2)
    }

    @Test func aCountedAddressIsHeldToItsCapAndAnUncountedOneIsNot() throws {
        var table = HTTPServerSlotTable(maxConnections: 8, maxConnectionsPerAddress: 2)
        _ = try admit(&table, from: "192.0.2.1", counted: true, at: 0)
        _ = try admit(&table, from: "192.0.2.1", counted: true, at: 1)
        let admission = table.admit(peerAddress: "192.0.2.1", isCountedPerAddress: true, descriptor: -1, at: at(2))
        #expect(admission == .addressFull)
        _ = try admit(&table, from: "192.0.2.2", counted: true, at: 3)
        for second in 4..<7 {
            _ = try admit(&table, at: second)
        }
    }

    @Test func connectionsThatNeverSentARequestAreDroppedFirstOldestFirst() throws {
        var table = HTTPServerSlotTable(maxConnections: 8, maxConnectionsPerAddress: 8)
        let idle = try admit(&table, at: 0)
        answer(&table, idle, at: 1)
        let older = try admit(&table, at: 2)
        let newer = try admit(&table, at: 3)

        #expect(table.dropOrder.map(\.id) == [older, newer, idle])
    }

    @Test func idleConnectionsOfTheHolderWithTheMostAreDroppedFirstThenOldestFirst() throws {
        var table = HTTPServerSlotTable(maxConnections: 8, maxConnectionsPerAddress: 8)
        var ids: [Int] = []
        // Through one proxy: the oldest is held for one client, the next two for another.
        for (second, holder) in [(0, "198.51.100.9"), (1, "203.0.113.7"), (2, "203.0.113.7")] {
            let id = try admit(&table, at: second)
            answer(&table, id, for: holder, at: 10 + second)
            ids.append(id)
        }

        #expect(table.dropOrder.map(\.id) == [ids[1], ids[2], ids[0]])
    }

    @Test func busyAndDroppedConnectionsAreNeverDropped() throws {
        var table = HTTPServerSlotTable(maxConnections: 8, maxConnectionsPerAddress: 8)
        let busy = try admit(&table, at: 0)
        let leftIdle = table.leaveIdle(busy)
        let waiting = try admit(&table, at: 1)

        let droppedBusy = table.drop(busy)
        let droppedWaiting = table.drop(waiting)
        let droppedAgain = table.drop(waiting)
        #expect(leftIdle)
        #expect(droppedBusy == nil)
        #expect(droppedWaiting?.state == .awaitingFirstRequest)
        #expect(droppedAgain == nil)
        #expect(table.dropOrder.isEmpty)
    }

    @Test func aDroppedConnectionCannotLeaveIdleAndHoldsItsSlotUntilItEnds() throws {
        var table = HTTPServerSlotTable(maxConnections: 1, maxConnectionsPerAddress: 1)
        let dropped = try admit(&table, at: 0)
        let entry = table.drop(dropped)
        #expect(entry != nil)

        let leftIdle = table.leaveIdle(dropped)
        table.enterIdle(dropped, holder: "127.0.0.1", at: at(1))
        let admission = table.admit(peerAddress: "127.0.0.1", isCountedPerAddress: false, descriptor: -1, at: at(2))
        #expect(!leftIdle)
        #expect(table.entry(dropped)?.state == .dropped)
        #expect(admission == .full)
        table.remove(dropped)
        _ = try admit(&table, at: 3)
    }

    @Test func aDroppedConnectionNoLongerCountsForItsHolder() throws {
        var table = HTTPServerSlotTable(maxConnections: 8, maxConnectionsPerAddress: 8)
        var ids: [Int] = []
        for (second, holder) in [(0, "198.51.100.9"), (1, "198.51.100.9"), (2, "203.0.113.7")] {
            let id = try admit(&table, at: second)
            answer(&table, id, for: holder, at: 10 + second)
            ids.append(id)
        }
        let dropped = table.drop(ids[0])
        #expect(dropped != nil)

        // One each now: the older goes first.
        #expect(table.dropOrder.map(\.id) == [ids[1], ids[2]])
    }
}
