import Glibc
import PlainContacts

extension HTTPServerListener {
    /// Adopts a listening socket this process inherited (from a supervisor that bound it),
    /// reading its port back; marks it close-on-exec and non-blocking, as ``open(address:port:)``
    /// makes its sockets.
    ///
    /// - Throws: ``HTTPServerError/Code/listenFailed`` when `descriptor` is not a bound socket.
    init(adopting descriptor: Int32) throws(HTTPServerError) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0, let local = HTTPServerAddress.decode(storage) else {
            let code = errno
            throw HTTPServerError(
                .listenFailed, "descriptor \(descriptor) is not a listening socket",
                underlying: SystemCallError(call: "getsockname", errno: code))
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.init(descriptor: descriptor, port: local.port)
    }
}
