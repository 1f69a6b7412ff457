/// The `sync-collection` report (RFC 6578).
extension CardDAVService {
    /// Answers the cards changed and removed since the request's token (every card for an
    /// empty token), in the order of their changes, with the token of the state answered;
    /// `address-data`, when asked, in the vCard version asked for (see
    /// ``CardDAVAddressDataType/version(askedIn:)``).
    ///
    /// A token of another instance, from the future, or older than the removals remembered
    /// (see ``CardDAVCollection/defaultMaximumRemovals``) is 403 with `DAV:valid-sync-token`: the
    /// client syncs afresh. With a `limit`, the first changes are answered with the token of the
    /// last one answered and a 507 response for the collection, so the client asks again.
    func syncCollection(_ body: WebDAVElement, space: CardDAVURLSpace, book: CardDAVServedBook) throws -> HTTPServerResponse {
        let collection = book.collection
        let asking = try Self.propertyRequest(in: body, required: false)
        let subset = CardDAVPropertyRequest.addressDataProperties(in: body)
        let version = try CardDAVAddressDataType.version(askedIn: body)
        let limit = try Self.resultLimit(of: body, namespace: .dav("limit"))
        let tokenText = body.child(.dav("sync-token"))?.text.trimmingWhitespaceAndNewlines ?? ""
        let listing = try collection.listing()
        var since: UInt64 = 0
        if !tokenText.isEmpty {
            guard let token = CardDAVSyncToken(uri: tokenText), token.instance == listing.token.instance,
                token.sequence <= listing.token.sequence, token.sequence >= listing.floor
            else {
                throw CardDAVFailure(status: 403, condition: "d:valid-sync-token")
            }
            since = token.sequence
        }
        // Every change after the token, oldest first: a card changed or added, or a removal.
        var changes: [(sequence: UInt64, name: String, removed: Bool)] = []
        for entry in listing.entries.values where entry.sequence > since {
            changes.append((entry.sequence, entry.name, false))
        }
        if since > 0 {
            for (name, sequence) in listing.removed where sequence > since {
                changes.append((sequence, name, true))
            }
        }
        changes.sort { $0.sequence < $1.sequence }
        var answered = listing.token
        var truncated = false
        if let limit, changes.count > limit {
            changes.removeLast(changes.count - limit)
            answered.sequence = changes.last?.sequence ?? since
            truncated = true
        }
        let changed = changes.filter { !$0.removed }.map(\.name)
        let cards = try collection.converted(
            collection.cards(named: Self.cardsToMake(of: changed, in: listing.entries, asking: asking)),
            to: asking.wantsAddressData ? version : nil)
        var xml = WebDAVXMLWriter(root: "d:multistatus", capacity: 512 + changes.count * 320)
        for change in changes {
            if change.removed {
                xml.open("d:response")
                xml.href(space.cardHref(change.name))
                xml.status(404)
                xml.close("d:response")
                continue
            }
            guard let entry = cards[change.name]?.entry ?? listing.entries[change.name] else { continue }
            let context = PropertyContext(
                space: space, token: nil, entry: entry, data: cards[change.name]?.data, addressDataProperties: subset)
            Self.writeResponse(.card(change.name), asking: asking, context: context, into: &xml)
        }
        if truncated { Self.writeTruncation(href: space.collectionHref, into: &xml) }
        xml.element("d:sync-token", text: answered.uri)
        return Self.multistatus(&xml)
    }
}
