import Glibc
import PlainContacts

/// A listening TCP socket: opened with `SOCK_CLOEXEC` and `SO_REUSEADDR`, non-blocking, and
/// handing out accepted connections that are non-blocking, close-on-exec and `TCP_NODELAY`.
///
/// ```swift
/// let listener = try HTTPServerListener.open(address: address, port: 0)
/// print(listener.port)   // the ephemeral port the system chose
/// ```
struct HTTPServerListener: Sendable {
    /// The length of the queue of connections not yet accepted: 128 (Linux's `SOMAXCONN` of old)
    /// absorbs a burst of clients reconnecting at once.
    static let backlog: Int32 = 128

    /// What one call to ``accept()`` gave.
    enum Accepted: Sendable {
        /// A new connection and the client's IP address.
        case connection(HTTPServerSocket, peerAddress: String)
        /// No connection is waiting.
        case noneWaiting
        /// `accept4` failed with this `errno`.
        case failed(Int32)
    }

    /// The file descriptor.
    let descriptor: Int32
    /// The port bound, the system's choice when 0 was asked for.
    let port: UInt16

    /// Creates, binds and starts a listening socket.
    ///
    /// - Throws: ``HTTPServerError/Code/listenFailed`` naming the failed call and its `errno`
    ///   (`EADDRINUSE` when the port is taken).
    static func open(address: HTTPServerAddress, port: UInt16) throws(HTTPServerError) -> HTTPServerListener {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let descriptor = socket(address.domain, type, 0)
        guard descriptor >= 0 else { throw failure("socket", address: address) }
        do throws(HTTPServerError) {
            var enabled: Int32 = 1
            guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enabled, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw failure("setsockopt", address: address)
            }
            if address.family == .ipv6 {
                // Listen on the IPv6 address only; an IPv4 address is asked for separately.
                guard setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &enabled, socklen_t(MemoryLayout<Int32>.size)) == 0
                else { throw failure("setsockopt", address: address) }
            }
            let bound = address.withSocketAddress(port: port) { bind(descriptor, $0, $1) }
            guard bound == 0 else { throw failure("bind", address: address) }
            guard listen(descriptor, backlog) == 0 else { throw failure("listen", address: address) }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            guard named == 0, let local = HTTPServerAddress.decode(storage) else {
                throw failure("getsockname", address: address)
            }
            return HTTPServerListener(descriptor: descriptor, port: local.port)
        } catch {
            _ = Glibc.close(descriptor)
            throw error
        }
    }

    /// Accepts one waiting connection without blocking; retried on `EINTR`.
    func accept() -> Accepted {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        while true {
            let connection = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.acceptConnection(descriptor, $0, &length) }
            }
            if connection >= 0 {
                var enabled: Int32 = 1
                // Responses are written whole; waiting to coalesce them only adds latency.
                _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
                let peer = HTTPServerAddress.decode(storage)?.text ?? ""
                return .connection(HTTPServerSocket(descriptor: connection), peerAddress: peer)
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .noneWaiting
            default: return .failed(errno)
            }
        }
    }

    /// The C type of `accept4`.
    private typealias Accept4 = @convention(c) (
        Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
    ) -> Int32

    /// The C library's `accept4`, looked up at run time because Glibc's module leaves out GNU
    /// extensions; `nil` if the library has none.
    private static let accept4: Accept4? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "accept4") else { return nil }
        return unsafeBitCast(symbol, to: Accept4.self)
    }()

    /// Accepts a connection that is close-on-exec and non-blocking from its first instant with
    /// `accept4`, so that no program the process starts meanwhile inherits it; without
    /// `accept4`, with `accept` and `fcntl`.
    private static func acceptConnection(
        _ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
    ) -> Int32 {
        if let accept4 {
            return accept4(listener, address, length, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
        }
        let connection = Glibc.accept(listener, address, length)
        guard connection >= 0 else { return connection }
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
        return connection
    }

    /// Closes the socket; connections already accepted stay open.
    func close() {
        _ = Glibc.close(descriptor)
    }

    /// The error for a failed call, with the `errno` it set.
    private static func failure(_ call: String, address: HTTPServerAddress) -> HTTPServerError {
        let code = errno
        return HTTPServerError(.listenFailed, "could not listen on \(address)", underlying: SystemCallError(call: call, errno: code))
    }
}
