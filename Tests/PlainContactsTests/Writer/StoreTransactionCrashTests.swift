import DAVTestSupport
import Foundation
import Glibc
import TestTags
import Testing

@testable import PlainContacts

/// Commits made by a separate process (`plaincontacts-crash-helper commit`) that is killed with
/// SIGKILL, followed by recovery in this process: the store must hold exactly the old or
/// exactly the new files.
@Suite("StoreTransaction crashes")
struct StoreTransactionCrashTests {
    /// The store before the helper's commit of `count` files.
    private func oldFiles(count: Int) -> [String: String] {
        var files: [String: String] = [:]
        for index in stride(from: 0, to: count, by: 2) {
            files["people/p\(index).json"] = "old \(index)\n"
        }
        // Every group file the commit deletes, and a few it keeps.
        for index in 0..<count where index % 3 == 0 || index < 30 {
            files["groups/g\(index).json"] = "old group \(index)\n"
        }
        return files
    }

    /// The store after the helper's commit, as its `commit` subcommand documents.
    private func newFiles(count: Int) -> [String: String] {
        var files = oldFiles(count: count)
        for index in 0..<count {
            files["people/p\(index).json"] = "new \(index)\n"
        }
        for index in stride(from: 0, to: count, by: 3) {
            files["groups/g\(index).json"] = nil
        }
        return files
    }

    private func seed(_ fixture: WriterFixture, count: Int) throws {
        for (path, text) in oldFiles(count: count) {
            try fixture.put(text, at: path)
        }
    }

    private func contents(of fixture: WriterFixture) -> [String: String] {
        var result: [String: String] = [:]
        for path in fixture.files() where !path.hasPrefix(".contacts/") {
            result[path] = fixture.text(at: path)
        }
        return result
    }

    /// Starts the helper committing `count` files and returns once it has printed "committing".
    private func startCommit(
        _ fixture: WriterFixture, count: Int, faultPoint: FaultInjection.Point? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = try crashHelperExecutable()
        process.arguments = ["commit", fixture.path, String(count)]
        var environment = ProcessInfo.processInfo.environment
        environment["PLAINCONTACTS_FAULT_POINT"] = faultPoint?.rawValue
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        _ = output.fileHandleForReading.availableData
        return process
    }

    /// Takes the lock as the book would and recovers.
    private func recover(_ fixture: WriterFixture) throws -> StoreTransaction.RecoveryOutcome {
        let lock = StoreLock(storeRoot: fixture.root)
        return try lock.withExclusive(timeout: .seconds(10)) {
            try StoreTransaction.recover(storeRoot: fixture.root)
        }
    }

    private func expectNoLeftovers(in fixture: WriterFixture, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(fixture.files(under: ".contacts") == [".contacts/lock"], sourceLocation: sourceLocation)
        #expect(!fixture.exists(".contacts/staging"), sourceLocation: sourceLocation)
    }

    @Test(arguments: FaultInjection.Point.allCases)
    func processKilledAtAFaultPointLeavesOldOrNewFilesAfterRecovery(point: FaultInjection.Point) throws {
        let fixture = try WriterFixture()
        let count = 100
        try seed(fixture, count: count)
        let process = try startCommit(fixture, count: count, faultPoint: point)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)

        #expect(StoreTransaction.needsRecovery(storeRoot: fixture.root))
        let outcome = try recover(fixture)
        let rolledForward = point.isCommitted && point != .afterJournalRemoved
        #expect(outcome == (rolledForward ? .rolledForward : .rolledBack))
        #expect(contents(of: fixture) == (point.isCommitted ? newFiles(count: count) : oldFiles(count: count)))
        expectNoLeftovers(in: fixture)
    }

    @Test func helperCommitsCompletelyWhenNotKilled() throws {
        let fixture = try WriterFixture()
        try seed(fixture, count: 30)
        let process = try startCommit(fixture, count: 30)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(!StoreTransaction.needsRecovery(storeRoot: fixture.root))
        #expect(contents(of: fixture) == newFiles(count: 30))
    }

    @Test(.tags(.slow), .slowTestsEnabled) func processKilledAtRandomMomentsOfALargeCommitLeavesOldOrNewFiles() throws {
        let count = 3_000
        let old = oldFiles(count: count)
        let new = newFiles(count: count)

        // One uninterrupted run tells how long the commit takes on this machine.
        let calibration = try WriterFixture()
        try seed(calibration, count: count)
        let clock = ContinuousClock()
        let first = try startCommit(calibration, count: count)
        let started = clock.now
        first.waitUntilExit()
        let duration = started.duration(to: clock.now)
        #expect(first.terminationStatus == 0)
        #expect(contents(of: calibration) == new)

        let microseconds = max(1_000, Int(duration.components.seconds) * 1_000_000
            + Int(duration.components.attoseconds / 1_000_000_000_000))
        for round in 0..<10 {
            let fixture = try WriterFixture()
            try seed(fixture, count: count)
            let process = try startCommit(fixture, count: count)
            usleep(UInt32(Int.random(in: 0...microseconds)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            _ = try recover(fixture)
            let result = contents(of: fixture)
            #expect(result == old || result == new, "round \(round)")
            expectNoLeftovers(in: fixture)
        }
    }
}
