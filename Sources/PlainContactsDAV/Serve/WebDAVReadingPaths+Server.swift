import Foundation

/// The server's paths: its one XML entry point and a service answering request bodies.
extension WebDAVReadingPaths {
    /// The one entry point, as the server calls it.
    package static func parse(_ data: Data) -> Outcome {
        do {
            _ = try WebDAVXML.parse(data, maximumDepth: CardDAVService.maximumXMLDepth)
            return .read
        } catch {
            return .refused
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
