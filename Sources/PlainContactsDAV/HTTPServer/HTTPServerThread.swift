import Glibc
import PlainContacts

/// Starts detached POSIX threads: one per connection, and one for the accept loop. Their work
/// blocks on sockets and on the handler, so it must not run on Dispatch's small shared pool.
///
/// ```swift
/// try HTTPServerThread.start { acceptLoop() }
/// ```
enum HTTPServerThread {
    /// The work a new thread runs, carried through `pthread_create`'s context pointer.
    private final class Work: Sendable {
        /// The work.
        let body: @Sendable () -> Void

        /// Creates the work.
        init(body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }

    /// Runs `body` on a new detached thread.
    ///
    /// - Throws: The failed call and its error number when the system refuses to create a
    ///   thread (`EAGAIN` when at its thread limit).
    static func start(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let work = Unmanaged.passRetained(Work(body: body))
        var attributes = pthread_attr_t()
        let initialized = pthread_attr_init(&attributes)
        guard initialized == 0 else {
            work.release()
            throw SystemCallError(call: "pthread_attr_init", errno: initialized)
        }
        defer { pthread_attr_destroy(&attributes) }
        _ = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
            work.body()
            return nil
        }, work.toOpaque())
        guard result == 0 else {
            work.release()
            throw SystemCallError(call: "pthread_create", errno: result)
        }
    }
}
