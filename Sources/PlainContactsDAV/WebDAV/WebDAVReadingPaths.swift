import Foundation

/// Every path by which the server and the client read XML, opened to the fuzzer of
/// `PlainContactsFuzz` (``WebDAVXML`` is their one entry point; these are its callers as the
/// server and the client meet them).
///
/// ```swift
/// let server = try WebDAVReadingPaths.Server(storeURL: folder)
/// server.respond(method: "PROPFIND", depth: "1", body: body)   // 207, 400, …; never a trap
/// WebDAVReadingPaths.readAnswer(body)                          // .read or .refused
/// ```
package enum WebDAVReadingPaths {
    /// What reading one body came to.
    package enum Outcome: Sendable, Hashable {
        /// The body was read.
        case read
        /// The body was refused with the error a caller expects (a 400, a `SyncError`).
        case refused
        /// Anything else: a wrong kind of error or a server error, with what it was.
        case failed(String)
    }
}
