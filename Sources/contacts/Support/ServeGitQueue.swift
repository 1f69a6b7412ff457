import Dispatch
import Foundation
import Synchronization

/// One piece of Git work `contacts serve` does after a change: a commit (``ServeCommit``).
///
/// A step that throws is carried out again later; it must be written so that running it again
/// after a failure part-way finishes its work without doing any of it twice.
protocol ServeGitStep: Sendable {
    /// What the step records, for the log: no personal data.
    var summary: String { get }

    /// Carries the step out.
    ///
    /// - Throws: what kept it from being done; the queue reports it and tries again.
    func run() throws
}

/// The Git work of `contacts serve`, off the requests' path: one serial queue of steps
/// (``ServeGitStep``), carried out in the order they were added, on a thread of its own.
///
/// A write's request adds its commit and is answered at once, however slow Git is. A step that
/// fails is reported in the log and tried again, after ``firstRetryDelay``, then twice as long
/// each time up to ``longestRetryDelay``; the steps after it wait for it, so commits keep the
/// order of the writes and none is skipped. A later step (a push of each commit to the remote,
/// in order) is one more kind of step added after each commit.
///
/// A stopping server waits for the queue (``drain(patience:)``): a commit added before the stop
/// is made before the process ends, unless Git fails for all of ``stopPatience``, which the log
/// then says.
///
/// ```swift
/// let queue = ServeGitQueue { line in console.note(line) }
/// queue.add(commit)          // returns at once
/// _ = queue.drain(patience: ServeGitQueue.stopPatience)
/// ```
final class ServeGitQueue: Sendable {
    /// How long the first retry of a failed step waits: a moment, for a lock Git holds briefly.
    static let firstRetryDelay = Duration.seconds(1)
    /// The longest wait between two tries: Git may be down for long (a full disk, a broken
    /// repository), and a try a minute costs nothing.
    static let longestRetryDelay = Duration.seconds(60)
    /// How long a stopping server waits for its commits: long enough for a slow Git and a few
    /// retries, short enough that a service manager's stop never hangs on a broken repository.
    static let stopPatience = Duration.seconds(120)

    /// Where the steps run, one after another.
    private let queue = DispatchQueue(label: "contacts.serve.git")
    /// The steps added and not yet done.
    private let pending = DispatchGroup()
    /// How many steps are added and not yet done.
    private let count = Atomic<Int>(0)
    /// Where failures are reported.
    private let log: @Sendable (String) -> Void
    /// Waits between two tries of a failed step.
    private let wait: @Sendable (Duration) -> Void

    /// A queue that reports to `log` and waits between tries with `wait` (a sleep; tests give
    /// their own).
    init(
        wait: @escaping @Sendable (Duration) -> Void = { Thread.sleep(forTimeInterval: Double($0.components.seconds)) },
        log: @escaping @Sendable (String) -> Void
    ) {
        self.wait = wait
        self.log = log
    }

    /// How many steps are added and not yet done.
    var waiting: Int {
        count.load(ordering: .acquiring)
    }

    /// Adds a step after those added before; returns at once.
    func add(_ step: some ServeGitStep) {
        pending.enter()
        count.add(1, ordering: .acquiringAndReleasing)
        queue.async { [self] in
            carryOut(step)
            count.subtract(1, ordering: .acquiringAndReleasing)
            pending.leave()
        }
    }

    /// Waits until every step added so far is done, or `patience` has passed; gives whether they
    /// are all done.
    func drain(patience: Duration) -> Bool {
        let nanoseconds = patience.components.seconds * 1_000_000_000 + patience.components.attoseconds / 1_000_000_000
        return pending.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }

    /// Runs a step until it succeeds, reporting each failure and waiting longer before each try.
    private func carryOut(_ step: some ServeGitStep) {
        var delay = Self.firstRetryDelay
        var failures = 0
        while true {
            do {
                try step.run()
                if failures > 0 { log("\(step.summary): done after \(failures + 1) tries") }
                return
            } catch {
                failures += 1
                log("\(step.summary) failed, trying again in \(delay.components.seconds) s: \((error as? CLIError)?.message ?? "\(error)")")
                wait(delay)
                delay = min(delay * 2, Self.longestRetryDelay)
            }
        }
    }
}
