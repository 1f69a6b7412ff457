#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET` and `HEAD` of a card (and of the address book, whose page lists its cards: see
/// ``CardDAVService/page(of:space:)``).
extension CardDAVService {
    /// Answers `GET` or `HEAD` of a card with its vCard and strong ETag; `If-None-Match` naming
    /// the current ETag gives 304, a failed `If-Match` 412. Other resources are not documents:
    /// 405.
    ///
    /// The card is given in the vCard version `Accept` asks for (see
    /// ``CardDAVAddressDataType/version(accepting:)``), with that version in `Content-Type`;
    /// else in the version it came in. An `Accept` that admits neither version is 406. Every
    /// version has the card's one ETag, as the listings give it (see ``CardDAVCollection/converted(_:to:)``).
    func get(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, book: CardDAVServedBook
    ) throws -> HTTPServerResponse {
        let collection = book.collection
        if resource == .collection { return try Self.page(of: collection, space: space) }
        guard case .card(let name) = resource else { throw CardDAVFailure(status: 405) }
        do {
            guard let found = try collection.card(named: name) else { throw CardDAVFailure(status: 404) }
            let version = try CardDAVAddressDataType.version(accepting: request.header("Accept"))
            try Self.checkConditions(of: request, current: found.entry)
            guard let card = try collection.converted([name: found], to: version)[name] else {
                throw CardDAVFailure(status: 404)
            }
            let type = version.map(CardDAVAddressDataType.contentType) ?? Self.cardContentType
            var response = HTTPServerResponse(status: 200, headers: ["Content-Type": type], body: card.data)
            response.headers.append("ETag", card.entry.quotedETag)
            if card.entry.modified > 0 {
                response.headers.append("Last-Modified", Self.httpDate(nanoseconds: card.entry.modified))
            }
            response.headers.append("Vary", "Accept")
            return response
        } catch var failure as CardDAVFailure {
            // A cache keeps a 304 or a 406 per `Accept` as it keeps the card.
            if failure.status == 304 || failure.status == 406 { failure.headers.append("Vary", "Accept") }
            throw failure
        }
    }
}
