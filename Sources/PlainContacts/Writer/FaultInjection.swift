import Glibc

/// A test-only facility that interrupts a commit at a chosen point, to prove it is crash safe.
///
/// Production code commits without one (``none``). Tests pass a hook that throws at a
/// ``Point``: ``throwing(_:at:)`` behaves like an ordinary failure (the commit cleans up after
/// itself), ``crashing(at:)`` behaves like a process killed at that instant (the commit stops
/// without cleaning up, leaving the work to ``StoreTransaction/recover(storeRoot:)``).
///
/// Real crashes: when the environment variable `PLAINCONTACTS_FAULT_POINT` holds the raw value
/// of a point (for example `PLAINCONTACTS_FAULT_POINT=afterJournal`), every commit made by the
/// process kills the process with `SIGKILL` when it reaches that point, whatever hook was
/// passed. The variable is read once, when the first commit reaches its first point; an
/// unknown value is ignored. Never set it outside tests.
///
/// ```swift
/// try StoreTransaction.commit(changes, storeRoot: root, faultInjection: .crashing(at: .afterSomeRenames))
/// ```
struct FaultInjection: Sendable {
    /// The points of a commit where a fault can be injected, in the order a commit reaches them.
    enum Point: String, CaseIterable, Sendable {
        /// Half of the new files are staged (before the first one if the commit writes fewer than two).
        case afterStagingSomeFiles
        /// Every new file is staged and durable.
        case afterStaging
        /// The journal is written and synced under its temporary name.
        case afterJournalTemp
        /// The journal has its final name: the commit point.
        case afterJournal
        /// Half of the operations are applied.
        case afterSomeRenames
        /// Every operation is applied, the folders are not yet synced.
        case afterRenames
        /// The changed folders are synced.
        case afterFolderSync
        /// The journal is removed; the empty staging folder remains.
        case afterJournalRemoved

        /// Whether the point comes after the commit point, so that recovery rolls forward.
        var isCommitted: Bool {
            switch self {
            case .afterStagingSomeFiles, .afterStaging, .afterJournalTemp: false
            case .afterJournal, .afterSomeRenames, .afterRenames, .afterFolderSync, .afterJournalRemoved: true
            }
        }
    }

    /// The error ``crashing(at:)`` throws: a commit that sees it stops at once and cleans nothing up.
    struct SimulatedCrash: Error, Sendable, Equatable {
        /// Where the crash was simulated.
        var point: Point
    }

    private let hook: @Sendable (Point) throws -> Void

    /// Creates an injection that calls `hook` at every point; whatever it throws ends the commit.
    init(_ hook: @escaping @Sendable (Point) throws -> Void) {
        self.hook = hook
    }

    /// No injected faults (only the environment variable applies).
    static let none = FaultInjection { _ in }

    /// Throws `error` at `point`, as a failing disk would; the commit cleans up what it staged.
    static func throwing(_ error: any Error & Sendable, at point: Point) -> FaultInjection {
        FaultInjection { reached in
            if reached == point { throw error }
        }
    }

    /// Stops the commit at `point` as if the process had been killed there: nothing is cleaned up.
    static func crashing(at point: Point) -> FaultInjection {
        FaultInjection { reached in
            if reached == point { throw SimulatedCrash(point: point) }
        }
    }

    /// Called by the commit at each point: kills the process if the environment asks for this
    /// point, then runs the hook.
    ///
    /// - Throws: Whatever the hook throws.
    func reach(_ point: Point) throws {
        if FaultInjection.environmentKillPoint == point {
            kill(getpid(), SIGKILL)
        }
        try hook(point)
    }

    /// The point named by `PLAINCONTACTS_FAULT_POINT`, read once.
    private static let environmentKillPoint: Point? = {
        guard let value = getenv("PLAINCONTACTS_FAULT_POINT") else { return nil }
        return Point(rawValue: String(cString: value))
    }()
}
