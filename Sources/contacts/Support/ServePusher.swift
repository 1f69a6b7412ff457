import Dispatch
import Foundation
import Synchronization

/// Pushes the commits `contacts serve` makes in a store to the store's Git remote (`--push`,
/// or `"autoPush": true` in store.json), in order and off the requests' path.
///
/// After each commit the committer asks for a push (``requestPush()``). Pushes run one at a
/// time on a thread of their own, beside the commits: a push that is slow or hangs (it is
/// given up after ``StorePush/timeout``) delays neither a client's write nor the next commit.
/// Requests made while a push runs are answered by one more push after it, which carries
/// every commit made meanwhile, in order, as Git does.
///
/// A push the remote rejects because it moved is never forced: the remote's branch is fetched
/// and merged with the store's merge driver, on the commit queue between two commits (the only
/// place that changes the work tree), and the push is tried again. A push that fails is
/// reported in the log with the commits not pushed, and tried again after ``firstRetryDelay``,
/// then twice as long each time up to ``longestRetryDelay``; the failure is also left in the
/// store's ``ServePushReport`` for `contacts doctor`. Commits not pushed when the server stops
/// stay in the repository, and the next server pushes them when it starts.
final class ServePusher: Sendable {
    /// How long the first retry of a failed push waits.
    static let firstRetryDelay = Duration.seconds(2)
    /// The longest wait between two tries: a host may be down for hours.
    static let longestRetryDelay = Duration.seconds(300)
    /// How long a stopping server waits for a push in progress.
    static let stopPatience = Duration.seconds(20)

    /// The state of the pushes, under one lock.
    private struct State {
        /// Whether a push (or the merge before one) is in progress.
        var running = false
        /// Whether a push was asked for since the last one began.
        var wanted = false
        /// Whether a retry is waiting for its time.
        var retryWaiting = false
        /// The wait before the next retry.
        var delay = ServePusher.firstRetryDelay
        /// The failures since the last push that succeeded.
        var failures = 0
        /// Whether the server stopped: retries waiting are dropped.
        var stopped = false
    }

    private let push: StorePush
    private let report: ServePushReport
    /// The commit queue, where merges are made between commits.
    private let commits: ServeGitQueue
    private let state = Mutex(State())
    private let pushes = DispatchQueue(label: "contacts.serve.push")
    /// Pushes in progress or queued, for ``finish()``.
    private let pending = DispatchGroup()
    private let firstDelay: Duration
    private let longestDelay: Duration
    private let log: @Sendable (String) -> Void

    /// A pusher of the commits of `store`, merging on `commits`, reporting to `log`; tests give
    /// shorter retry delays and a shorter `timeout`.
    init(
        store: URL, commits: ServeGitQueue, environment: [String: String] = [:], timeout: Duration = StorePush.timeout,
        firstRetryDelay: Duration = ServePusher.firstRetryDelay, longestRetryDelay: Duration = ServePusher.longestRetryDelay,
        log: @escaping @Sendable (String) -> Void
    ) {
        push = StorePush(store: store, environment: environment, timeout: timeout)
        report = ServePushReport(store: store)
        self.commits = commits
        firstDelay = firstRetryDelay
        longestDelay = longestRetryDelay
        self.log = log
        state.withLock { $0.delay = firstRetryDelay }
    }

    /// Asks for the commits made so far to be pushed; returns at once.
    func requestPush() {
        let start = state.withLock { state in
            state.wanted = true
            guard !state.running, !state.retryWaiting else { return false }
            state.running = true
            state.wanted = false
            return true
        }
        if start { schedulePush() }
    }

    /// Waits a little for the push in progress, then says in the log which commits are left
    /// for the next server.
    func finish() {
        state.withLock { $0.stopped = true }
        _ = pending.wait(timeout: .now() + .seconds(Int(Self.stopPatience.components.seconds)))
        guard let left = push.unpushed(), left.count > 0 else { return }
        log("\(ServePushReport.describe(count: left.count, remote: left.remote, since: left.since)); the next server started on the store pushes them")
    }

    /// Runs one push on the push thread.
    private func schedulePush() {
        pending.enter()
        pushes.async { [self] in
            attempt()
            pending.leave()
        }
    }

    /// Pushes; on success pushes again if asked meanwhile, on rejection merges first.
    private func attempt() {
        while true {
            switch push.push() {
            case .pushed:
                let failures = state.withLock { state in
                    defer { state.failures = 0; state.delay = firstDelay }
                    return state.failures
                }
                report.clear()
                if failures > 0 { log("pushed to the remote after \(failures + 1) tries") }
                let again = state.withLock { state in
                    guard state.wanted else {
                        state.running = false
                        return false
                    }
                    state.wanted = false
                    return true
                }
                guard again else { return }
            case .rejected:
                log("the remote has commits this store lacks: merging them, then pushing again")
                pending.enter()
                commits.add(ServeMergeStep(pusher: self))
                return
            case .failed(let reason):
                retryLater(reason)
                return
            }
        }
    }

    /// Fetches and merges the remote's commits (on the commit queue), then pushes again.
    fileprivate func mergeThenPush() {
        defer { pending.leave() }
        do {
            try push.merge()
            schedulePush()
        } catch {
            retryLater(error.message)
        }
    }

    /// Reports a failure and tries again after the current delay, doubling it.
    private func retryLater(_ reason: String) {
        let delay = state.withLock { state in
            state.failures += 1
            state.running = false
            state.retryWaiting = true
            defer { state.delay = min(state.delay * 2, longestDelay) }
            return state.delay
        }
        let left = push.unpushed()
        report.record(reason, remote: left?.remote)
        let what = left.map { ServePushReport.describe(count: $0.count, remote: $0.remote, since: $0.since) } ?? "commits not pushed"
        log("push failed (\(reason)): \(what); trying again in \(delay.components.seconds) s")
        let milliseconds = Int(delay.components.seconds) * 1000 + Int(delay.components.attoseconds / 1_000_000_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
            let stopped = state.withLock { state in
                state.retryWaiting = false
                state.wanted = true
                return state.stopped
            }
            if !stopped { requestPush() }
        }
    }
}

/// The merge before a push the remote rejected, made on the commit queue so that no commit is
/// being built meanwhile. It never throws: a failed merge is retried by the pusher, later,
/// without holding the commits behind it.
private struct ServeMergeStep: ServeGitStep {
    let pusher: ServePusher

    var summary: String { "merge of the remote's commits" }

    func run() throws {
        pusher.mergeThenPush()
    }
}
