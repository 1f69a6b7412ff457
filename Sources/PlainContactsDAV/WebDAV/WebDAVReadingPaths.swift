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

    /// The one entry point, as the server calls it.
    package static func parse(_ data: Data) -> Outcome {
        do {
            _ = try WebDAVXML.parse(data, maximumDepth: CardDAVService.maximumXMLDepth)
            return .read
        } catch {
            return .refused
        }
    }

    /// The client's reading of a server's answer: as a multistatus (every `PROPFIND` and
    /// `REPORT` of `contacts sync` and of discovery) and as a `DAV:error` of a 403.
    package static func readAnswer(_ data: Data) -> Outcome {
        _ = HTTPClient.lacksPrivileges(HTTPResponse(status: 403, body: data, url: URL(filePath: "/")))
        do {
            _ = try WebDAVMultistatus.parse(data, url: "http://127.0.0.1/fuzz/")
            return .read
        } catch let error as SyncError where error.code == .malformedResponse {
            return .refused
        } catch {
            return .failed("the answer was refused with \(error), not a malformed-response SyncError")
        }
    }

    /// The server's reading of request bodies: a ``CardDAVService`` on a store, as
    /// `contacts serve` runs one, answering requests without a socket.
    package final class Server {
        private let service: CardDAVService
        private let collection: String

        /// A service on the store at `storeURL`, which must exist.
        ///
        /// - Throws: what opening the store as a book throws.
        package init(storeURL: URL) throws {
            service = try CardDAVService(storeURL: storeURL)
            collection = CardDAVURLSpace(user: nil).collectionHref
        }

        /// Sends `body` to the address book with `method` and `Depth: depth`; what came of it:
        /// an answer below 500 is ``Outcome/read`` (2xx) or ``Outcome/refused``, a 5xx failed.
        package func respond(method: String, depth: String, body: Data) -> Outcome {
            let request = HTTPServerRequest(
                method: method, target: collection,
                headers: HTTPHeaderFields([("Depth", depth), ("Content-Type", "application/xml")]), body: body)
            let status = service.respond(to: request, user: nil).status
            switch status {
            case 200..<300: return .read
            case 300..<500: return .refused
            default: return .failed("\(method) was answered \(status)")
            }
        }
    }
}
