/// `DELETE` of a card.
extension CardDAVService {
    /// Removes a card's person or group from the store (one save under the store's lock), on
    /// its `If-Match` condition. The address book and the principal cannot be removed: 405.
    func delete(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, user: String?, book served: CardDAVServedBook
    ) throws -> HTTPServerResponse {
        guard case .card(let name) = resource else { throw CardDAVFailure(status: 405) }
        try served.writer.delete(
            named: name, preconditions: CardDAVPreconditions(request), client: Self.client(of: request, user: user))
        return HTTPServerResponse(status: 204)
    }
}
