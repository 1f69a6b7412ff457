#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET` and `HEAD` of a card.
extension CardDAVService {
    /// Answers `GET` or `HEAD` of a card with its vCard and strong ETag; `If-None-Match` naming
    /// the current ETag gives 304, a failed `If-Match` 412. Other resources are not documents:
    /// 405.
    func get(_ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource) throws -> HTTPServerResponse {
        guard case .card(let name) = resource else { throw CardDAVFailure(status: 405) }
        guard let card = try collection.card(named: name) else { throw CardDAVFailure(status: 404) }
        try Self.checkConditions(of: request, current: card.entry)
        var response = HTTPServerResponse(status: 200, headers: ["Content-Type": Self.cardContentType], body: card.data)
        response.headers.append("ETag", card.entry.quotedETag)
        if card.entry.modified > 0 {
            response.headers.append("Last-Modified", Self.httpDate(nanoseconds: card.entry.modified))
        }
        return response
    }
}
