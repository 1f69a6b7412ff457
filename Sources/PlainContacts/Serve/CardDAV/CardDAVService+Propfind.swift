/// `PROPFIND` (RFC 4918 section 9.1).
extension CardDAVService {
    /// Answers `PROPFIND` on a resource and, with `Depth: 1`, its members: the root's member is
    /// the principal, the principal's the address book, the address book's every card.
    ///
    /// A request without `Depth` is answered as `Depth: 0`, as Radicale does (clients that leave
    /// it out want the resource itself); `Depth: infinity` is refused with 403 and
    /// `DAV:propfind-finite-depth`, which RFC 4918 allows: a client then asks level by level.
    func propfind(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace
    ) throws -> HTTPServerResponse {
        guard let depth = try Self.depth(of: request, missing: 0) else {
            throw CardDAVFailure(status: 403, condition: "d:propfind-finite-depth")
        }
        let body = try Self.xmlBody(of: request)
        if let body, body.name != .dav("propfind") { throw CardDAVFailure(status: 400, text: "the body is not a DAV propfind") }
        let asking = CardDAVPropertyRequest(body)
        var context = PropertyContext(space: space, addressDataProperties: CardDAVPropertyRequest.addressDataProperties(in: body))
        var xml = CardDAVXMLWriter(root: "d:multistatus")
        switch resource {
        case .root, .wellKnown:
            Self.writeResponse(.root, asking: asking, context: context, into: &xml)
            if depth == 1 { Self.writeResponse(.principal, asking: asking, context: context, into: &xml) }
        case .principal:
            Self.writeResponse(.principal, asking: asking, context: context, into: &xml)
            if depth == 1 {
                context.token = try collection.token()
                Self.writeResponse(.collection, asking: asking, context: context, into: &xml)
            }
        case .collection:
            let listing = try collection.listing()
            context.token = listing.token
            Self.writeResponse(.collection, asking: asking, context: context, into: &xml)
            if depth == 1 {
                let names = listing.entries.keys.sorted()
                let cards = asking.wantsAddressData ? try collection.cards(named: names) : [:]
                xml = CardDAVXMLWriter(root: "d:multistatus", capacity: 512 + names.count * 320)
                Self.writeResponse(.collection, asking: asking, context: context, into: &xml)
                for name in names {
                    guard let entry = cards[name]?.entry ?? listing.entries[name] else { continue }
                    var cardContext = context
                    cardContext.token = nil
                    cardContext.entry = entry
                    cardContext.data = cards[name]?.data
                    Self.writeResponse(.card(name), asking: asking, context: cardContext, into: &xml)
                }
            }
        case .card(let name):
            guard let card = try collection.card(named: name) else { throw CardDAVFailure(status: 404) }
            context.entry = card.entry
            context.data = asking.wantsAddressData ? card.data : nil
            Self.writeResponse(resource, asking: asking, context: context, into: &xml)
        case .birthdayCalendar:
            throw CardDAVFailure.notOnBirthdayCalendar
        }
        return Self.multistatus(&xml)
    }
}
