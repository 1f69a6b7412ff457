import Dispatch
import Foundation
import Glibc
import Synchronization

/// Kills a process still running after a while, unless disarmed first, with every process it
/// started: a Git push that hangs may be waiting on its transport (`ssh`, a `receive-pack`
/// wrapper), which would otherwise outlive it and hold its output open.
///
/// ```swift
/// let watchdog = ProcessWatchdog(pid: process.processIdentifier, after: .seconds(60))
/// process.waitUntilExit()
/// let killed = watchdog.disarm()
/// ```
final class ProcessWatchdog: Sendable {
    /// Whether the process is still watched: set until it ends or is killed.
    private let armed = Atomic<Bool>(true)
    /// Whether the process was killed.
    private let fired = Atomic<Bool>(false)

    /// Kills `pid` with SIGKILL after `delay` unless ``disarm()`` is called before.
    init(pid: pid_t, after delay: Duration) {
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
            fired.store(true, ordering: .releasing)
            // The whole tree is found first: a process killed first would leave its children
            // to init, and out of reach.
            for process in [pid] + Self.descendants(of: pid) { kill(process, SIGKILL) }
        }
    }

    /// The processes descended from `pid`, read from the parent of each process in `/proc`.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var parents: [pid_t: [pid_t]] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let child = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                // The name in parentheses may hold spaces; the state and the parent follow it.
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
            parents[parent, default: []].append(child)
        }
        var found: [pid_t] = []
        var waiting = parents[pid] ?? []
        while let next = waiting.popLast() {
            found.append(next)
            waiting += parents[next] ?? []
        }
        return found
    }

    /// Stops watching; gives whether the process was killed.
    func disarm() -> Bool {
        _ = armed.exchange(false, ordering: .acquiringAndReleasing)
        return fired.load(ordering: .acquiring)
    }
}
