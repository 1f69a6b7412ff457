import Foundation
import PlainContacts
import Synchronization

/// A piece of work started on its own thread, whose result is waited for later: a server's
/// answer fetched while the store is read.
///
/// ```swift
/// let changes = BackgroundTask { try remote.changes(since: token) }
/// try readStore()
/// let answer = try changes.value()
/// ```
final class BackgroundTask<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            finished.signal()
        }
        thread.start()
    }

    /// Waits for the work to finish and returns its value, or throws its error.
    func value() throws -> Value {
        finished.wait()
        finished.signal()
        guard let outcome = result.withLock({ $0 }) else {
            throw ContactsError(.io, "a background task finished without a result")
        }
        return try outcome.get()
    }
}
