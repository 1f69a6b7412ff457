import Dispatch
import Foundation
import Synchronization
import Testing
@testable import contacts

/// What the steps of a test did, in order.
private final class Journal: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// A step that notes when it runs, fails as many times as told, and may first wait at a gate.
private final class NotedStep: ServeGitStep {
    let summary: String
    private let journal: Journal
    private let failuresLeft: Mutex<Int>
    private let gate: DispatchSemaphore?

    init(_ name: String, journal: Journal, failing failures: Int = 0, gate: DispatchSemaphore? = nil) {
        summary = name
        self.journal = journal
        failuresLeft = Mutex(failures)
        self.gate = gate
    }

    func run() throws {
        gate?.wait()
        journal.append("run \(summary)")
        let fails = failuresLeft.withLock { left in
            defer { left = max(left - 1, 0) }
            return left > 0
        }
        if fails { throw CLIError.failure("Git is down") }
        journal.append("done \(summary)")
    }
}

/// The waits a queue asked for, and its log.
private final class Recorder: Sendable {
    let waits = Mutex<[Duration]>([])
    let lines = Mutex<[String]>([])
}

@Suite struct ServeGitQueueTests {
    private func queue(_ recorder: Recorder) -> ServeGitQueue {
        ServeGitQueue(wait: { delay in recorder.waits.withLock { $0.append(delay) } }) { line in
            recorder.lines.withLock { $0.append(line) }
        }
    }

    @Test func stepsAreCarriedOutInTheOrderAddedAndAddingNeverWaitsForThem() {
        let journal = Journal()
        let gate = DispatchSemaphore(value: 0)
        let queue = queue(Recorder())

        queue.add(NotedStep("1", journal: journal, gate: gate))
        queue.add(NotedStep("2", journal: journal))
        queue.add(NotedStep("3", journal: journal))
        // All three were added while the first is held: none has run.
        #expect(journal.all.isEmpty)
        #expect(queue.waiting == 3)
        gate.signal()

        #expect(queue.drain(patience: .seconds(60)))
        #expect(journal.all == ["run 1", "done 1", "run 2", "done 2", "run 3", "done 3"])
        #expect(queue.waiting == 0)
    }

    @Test func aFailedStepIsReportedAndTriedAgainWithLongerWaitsBeforeTheNextRuns() {
        let journal = Journal()
        let recorder = Recorder()
        let queue = queue(recorder)

        queue.add(NotedStep("the commit of A", journal: journal, failing: 3))
        queue.add(NotedStep("the commit of B", journal: journal))

        #expect(queue.drain(patience: .seconds(60)))
        #expect(journal.all == [
            "run the commit of A", "run the commit of A", "run the commit of A", "run the commit of A", "done the commit of A",
            "run the commit of B", "done the commit of B",
        ])
        #expect(recorder.waits.withLock { $0 } == [.seconds(1), .seconds(2), .seconds(4)])
        let lines = recorder.lines.withLock { $0 }
        #expect(lines.count == 4)
        #expect(lines.prefix(3).allSatisfy { $0.hasPrefix("the commit of A failed, trying again in ") && $0.hasSuffix(": Git is down") })
        #expect(lines.last == "the commit of A: done after 4 tries")
    }

    @Test func theWaitBetweenTriesGrowsNoLongerThanTheLongest() {
        let recorder = Recorder()
        let queue = queue(recorder)

        queue.add(NotedStep("A", journal: Journal(), failing: 8))

        #expect(queue.drain(patience: .seconds(60)))
        #expect(recorder.waits.withLock { $0 } == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
        #expect(ServeGitQueue.longestRetryDelay == .seconds(60))
    }

    @Test func drainingSaysWhetherStepsAreLeftWhenItsPatienceEnds() {
        let gate = DispatchSemaphore(value: 0)
        let queue = queue(Recorder())

        queue.add(NotedStep("held", journal: Journal(), gate: gate))

        #expect(!queue.drain(patience: .milliseconds(20)))
        #expect(queue.waiting == 1)
        gate.signal()
        #expect(queue.drain(patience: .seconds(60)))
    }
}
