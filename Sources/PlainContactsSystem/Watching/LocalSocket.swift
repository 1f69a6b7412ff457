import Glibc

/// A Unix stream socket on a path, answered only to and by the same user: the listening end a
/// daemon serves, and the connecting end its clients ask.
///
/// Both ends check the other's user with `SO_PEERCRED`, so that a socket another user put at
/// the path is never believed, and another user's program is never answered. A path too long
/// for `sun_path` is replaced by ``address(for:)`` with a short one.
///
/// ```swift
/// let path = LocalSocket.address(for: "/books/home/.contacts/watch.socket")
/// if let connection = LocalSocket.connect(path, timeoutMilliseconds: 50) {
///     defer { close(connection) }
///     …
/// }
/// ```
package enum LocalSocket {
    /// The most bytes `sun_path` holds, with its terminating zero.
    static let pathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// `preferred` when it fits `sun_path`; otherwise a path under `$XDG_RUNTIME_DIR` (or
    /// `/tmp`) named by a hash of `preferred`, inside a folder only this user may enter, which
    /// is created with mode `0700` (`nil` when it cannot be, or is not this user's own).
    package static func address(for preferred: String) -> String? {
        if preferred.utf8.count < pathCapacity { return preferred }
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let folder = runtime.map { $0 + "/plaincontacts" } ?? "/tmp/plaincontacts-\(getuid())"
        if mkdir(folder, 0o700) != 0, errno != EEXIST { return nil }
        var status = stat()
        guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(),
            status.st_mode & 0o077 == 0
        else { return nil }
        let digest = SHA256.hexString(SHA256.hash(Array(preferred.utf8)).prefix(12))
        let path = folder + "/" + digest + ".socket"
        return path.utf8.count < pathCapacity ? path : nil
    }

    /// The user at the other end of a connected socket; `nil` when the kernel does not say.
    package static func peerUser(of socket: Int32) -> uid_t? {
        // `struct ucred` (process, user, group), which Swift's Glibc module leaves out.
        var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout.size(ofValue: credentials)
        else { return nil }
        return credentials.uid
    }

    /// Listens on `path`, replacing whatever socket was left there (the caller holds the lock
    /// that makes it the only one to serve it); the listening descriptor, or the `errno` of
    /// the call that failed. Only the user may connect: the socket is made with mode `0600`.
    package static func listen(on path: String) -> Result<Int32, SocketFailure> {
        var status = stat()
        if lstat(path, &status) == 0 {
            // Only a socket is replaced; a file someone put there is theirs.
            guard status.st_mode & S_IFMT == S_IFSOCK else { return .failure(SocketFailure(call: "lstat", code: EEXIST)) }
            unlink(path)
        }
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return .failure(SocketFailure(call: "socket", code: errno)) }
        let previousMask = umask(0o177)
        let bound = withAddress(path) { bind(socket, $0, $1) }
        umask(previousMask)
        guard bound == 0 else {
            let failure = SocketFailure(call: "bind", code: errno)
            close(socket)
            return .failure(failure)
        }
        guard Glibc.listen(socket, 64) == 0 else {
            let failure = SocketFailure(call: "listen", code: errno)
            close(socket)
            unlink(path)
            return .failure(failure)
        }
        return .success(socket)
    }

    /// Connects to the socket at `path` and checks that this user serves it; `nil` when
    /// nothing listens there (a daemon that died leaves a socket that refuses at once), the
    /// path is no socket, another user serves it, or no connection is made within
    /// `timeoutMilliseconds`. The descriptor has the same timeout for its reads and writes.
    package static func connect(_ path: String, timeoutMilliseconds: Int) -> Int32? {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return nil }
        var timeout = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var connected = withAddress(path) { Glibc.connect(socket, $0, $1) }
        while connected != 0, errno == EINTR { connected = withAddress(path) { Glibc.connect(socket, $0, $1) } }
        guard connected == 0, peerUser(of: socket) == getuid() else {
            close(socket)
            return nil
        }
        return socket
    }

    /// Takes the next connection of a listening socket, closed on `exec`; `nil` when none
    /// could be taken. The corresponding C function is `accept`.
    package static func accept(from listener: Int32) -> Int32? {
        while true {
            let connection = Glibc.accept(listener, nil, nil)
            if connection < 0, errno == EINTR { continue }
            guard connection >= 0 else { return nil }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            return connection
        }
    }

    /// Writes all of `bytes`; whether it could.
    package static func send(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.send(socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Reads until the other end closes or `terminator` ends what was read, at most `limit`
    /// bytes; `nil` on a failed read (a timeout among them) or past the limit.
    package static func receive(from socket: Int32, until terminator: UInt8? = nil, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[..<count])
            guard bytes.count <= limit else { return nil }
            if let terminator, bytes.last == terminator { return bytes }
        }
    }

    /// Calls `body` with a `sockaddr_un` for `path` (truncated paths are never made: callers
    /// pass ``address(for:)``'s answer).
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < pathCapacity else {
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// A socket call that failed: the call's name and its `errno`.
package struct SocketFailure: Error, Sendable {
    package var call: String
    package var code: Int32
}
