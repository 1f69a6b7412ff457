import PlainContacts

/// `DELETE` of a card.
extension CardDAVService {
    /// Removes a card's person or group from the store (one save under the store's lock), on
    /// its `If-Match` condition. The address book and the principal cannot be removed: 405.
    func delete(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, user: String?, book served: CardDAVServedBook
    ) throws -> HTTPServerResponse {
        guard case .card(let name) = resource else { throw CardDAVFailure(status: 405) }
        _ = try served.collection.write(name: name, uid: nil) { current in
            guard let current else { throw CardDAVFailure(status: 404) }
            try Self.checkConditions(of: request, current: current)
            let book = try AddressBook(url: served.layout.root, options: served.options)
            switch current.record.kind {
            case .person:
                guard let person = try book.person(forKey: current.record.key) else { throw CardDAVFailure(status: 404) }
                try book.remove(person)
            case .group:
                guard let group = book.group(forKey: current.record.key) else { throw CardDAVFailure(status: 404) }
                try book.remove(group)
            }
            try book.save()
            let userAgent = request.header("User-Agent")
            afterWrite?(
                CardDAVWrite(
                    method: "DELETE", record: current.record, user: user, userAgent: userAgent, book: served.name,
                    storeURL: served.layout.root))
            return CardDAVCollection.Written(record: current.record)
        }
        return HTTPServerResponse(status: 204)
    }
}
