import Glibc

/// A connected, non-blocking client socket, read and written with deadlines through `poll`.
///
/// Every call is retried on `EINTR`; writes use `MSG_NOSIGNAL`, so a client that has gone away
/// makes `send` fail with `EPIPE` instead of raising `SIGPIPE`.
///
/// ```swift
/// let outcome = socket.receive(into: &parser, deadline: .now + .seconds(30), stopDescriptor: stop.readDescriptor)
/// _ = socket.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), progressTimeout: .seconds(30))
/// ```
struct HTTPServerSocket: Sendable {
    /// How many bytes one `recv` asks for: 64 KiB drains a fast upload in few calls without a
    /// large buffer per read.
    static let receiveChunkSize = 64 * 1024

    /// What waiting for bytes ended with.
    enum ReceiveOutcome: Sendable, Hashable {
        /// Bytes arrived and were handed over.
        case received
        /// The client closed its side of the connection.
        case closed
        /// The deadline passed first.
        case timedOut
        /// The server is stopping.
        case stopped
        /// The socket failed (a reset, for example).
        case failed
    }

    /// The file descriptor.
    let descriptor: Int32

    /// Creates the wrapper of a connected socket; call ``close()`` once when done.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Waits until bytes arrive, the deadline passes or the stop descriptor becomes readable,
    /// and hands what arrived to `parser`.
    func receive(
        into parser: inout HTTPRequestParser, deadline: ContinuousClock.Instant, stopDescriptor: Int32?
    ) -> ReceiveOutcome {
        withUnsafeTemporaryAllocation(byteCount: Self.receiveChunkSize, alignment: 1) { buffer in
            while true {
                switch wait(forEvents: Int16(POLLIN), deadline: deadline, stopDescriptor: stopDescriptor) {
                case .timedOut: return .timedOut
                case .stopped: return .stopped
                case .failed: return .failed
                case .ready: break
                }
                let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
                if count > 0 {
                    parser.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                    return .received
                }
                if count == 0 { return .closed }
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                return .failed
            }
        }
    }

    /// Waits until bytes (or the end of the stream, or an error) can be read, the deadline
    /// passes or the stop descriptor becomes readable, and reads nothing: a connection waiting
    /// for a request leaves its idle state between this and ``receive(into:deadline:stopDescriptor:)``.
    func waitUntilReadable(deadline: ContinuousClock.Instant, stopDescriptor: Int32?) -> Readiness {
        wait(forEvents: Int16(POLLIN), deadline: deadline, stopDescriptor: stopDescriptor)
    }

    /// Whether bytes, the end of the stream or an error wait to be read, without waiting; also
    /// `true` when `poll` fails, so that a caller deciding to drop an idle connection leaves
    /// one it cannot look at alone.
    var isReadable: Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return poll(&descriptors, 1, 0) != 0
    }

    /// Shuts down both directions without closing the descriptor: the client sees the end of
    /// the stream, and a thread polling the socket wakes up to close it.
    func shutDown() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Writes all of `bytes`, giving up when the client takes none of them for
    /// `progressTimeout`; returns whether everything was written.
    func send(_ bytes: UnsafeRawBufferPointer, progressTimeout: Duration) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard let start = bytes.baseAddress else { return true }
            let count = Glibc.send(descriptor, start + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if count > 0 {
                offset += count
                continue
            }
            if count < 0, errno == EINTR { continue }
            guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK else { return false }
            let deadline = ContinuousClock.now + progressTimeout
            guard case .ready = wait(forEvents: Int16(POLLOUT), deadline: deadline, stopDescriptor: nil) else {
                return false
            }
        }
        return true
    }

    /// Writes all of `bytes`, as ``send(_:progressTimeout:)-(UnsafeRawBufferPointer,_)`` does.
    func send(_ bytes: [UInt8], progressTimeout: Duration) -> Bool {
        bytes.withUnsafeBytes { send($0, progressTimeout: progressTimeout) }
    }

    /// Closes the sending side, then reads and drops whatever the client still sends until it
    /// closes, the deadline passes or `limit` bytes were dropped, and closes the socket: the
    /// lingering close of RFC 9112 §9.6, which keeps the kernel from answering unread bytes with
    /// a reset that would destroy the last response.
    func lingeringClose(deadline: ContinuousClock.Instant, discardingAtMost limit: Int = .max) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
        var discarded = 0
        withUnsafeTemporaryAllocation(byteCount: Self.receiveChunkSize, alignment: 1) { buffer in
            while discarded < limit, case .ready = wait(forEvents: Int16(POLLIN), deadline: deadline, stopDescriptor: nil) {
                let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
                if count > 0 {
                    discarded += count
                } else if count == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
                    break
                }
            }
        }
        close()
    }

    /// Closes the socket.
    func close() {
        _ = Glibc.close(descriptor)
    }

    /// What waiting on the socket ended with.
    enum Readiness: Sendable, Hashable {
        /// The socket is ready for the events asked for (or has an error to report).
        case ready
        /// The deadline passed.
        case timedOut
        /// The stop descriptor became readable.
        case stopped
        /// `poll` itself failed.
        case failed
    }

    /// Waits with `poll` until the socket is ready for `events`, the deadline passes or the stop
    /// descriptor becomes readable; retried on `EINTR`.
    private func wait(forEvents events: Int16, deadline: ContinuousClock.Instant, stopDescriptor: Int32?) -> Readiness {
        var descriptors = [pollfd(fd: descriptor, events: events, revents: 0)]
        if let stopDescriptor {
            descriptors.append(pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0))
        }
        while true {
            let timeout = Self.pollTimeout(until: deadline)
            let result = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if result < 0 {
                if errno == EINTR { continue }
                return .failed
            }
            if descriptors.count > 1, descriptors[1].revents != 0 { return .stopped }
            if descriptors[0].revents != 0 { return .ready }
            if timeout == 0 { return .timedOut }
        }
    }

    /// The `poll` timeout, in whole milliseconds rounded up, until a deadline; 0 once it has
    /// passed.
    static func pollTimeout(until deadline: ContinuousClock.Instant) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return Int32.max }
        let roundedUp = (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
        let (total, sumOverflow) = milliseconds.addingReportingOverflow(roundedUp)
        return sumOverflow ? Int32.max : Int32(clamping: total)
    }
}
