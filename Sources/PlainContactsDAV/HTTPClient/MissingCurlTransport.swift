/// The ``HTTPTransport`` where libcurl cannot be loaded: every request fails with a message
/// that names the library to install.
///
/// The store's commands never load the network libraries; a sync loads libcurl when it sends
/// its first request (see ``CurlLibrary``), so a machine without it can still use the store.
///
/// ```swift
/// let transport = CurlLibrary.shared.map { CurlTransport(curl: $0) } ?? MissingCurlTransport()
/// ```
struct MissingCurlTransport: HTTPTransport {
    /// Fails: there is no library to send with.
    ///
    /// - Throws: ``HTTPTransportError/Kind/connectionFailed``, naming libcurl.
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        throw HTTPTransportError(
            .connectionFailed,
            detail: "libcurl (libcurl.so.4) cannot be loaded; install it (Debian and Ubuntu: libcurl4) to sync")
    }
}
