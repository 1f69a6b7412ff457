/// The `addressbook-multiget` report (RFC 6352 section 8.7).
extension CardDAVService {
    /// Answers the properties of the cards a multiget names by href, each with its
    /// `address-data` when asked, in the vCard version it asks for (see
    /// ``CardDAVAddressDataType/version(askedIn:)``); an href that names no card of the address
    /// book gets its own 404 response.
    func multiget(
        _ body: WebDAVElement, resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, book: CardDAVServedBook
    ) throws -> HTTPServerResponse {
        let collection = book.collection
        guard resource == .collection || resource.isCard else {
            throw CardDAVFailure(status: 403, condition: "d:supported-report")
        }
        let asking = try Self.propertyRequest(in: body, required: false)
        let subset = CardDAVPropertyRequest.addressDataProperties(in: body)
        let version = try CardDAVAddressDataType.version(askedIn: body)
        var names: [(href: String, name: String?)] = []
        for element in body.children where element.name == .dav("href") {
            let href = element.text.trimmingWhitespaceAndNewlines
            let name: String?
            if case .card(let cardName)? = try? space.resource(ofHref: href) { name = cardName } else { name = nil }
            names.append((href, name))
        }
        let wanted = asking.wantsAddressData ? version : nil
        let cards = try collection.converted(collection.cards(named: names.compactMap(\.name)), to: wanted)
        var xml = WebDAVXMLWriter(root: "d:multistatus", capacity: 512 + cards.values.reduce(0) { $0 + $1.data.count + 400 })
        for (href, name) in names {
            guard let name, let card = cards[name] else {
                xml.open("d:response")
                xml.href(href)
                xml.status(404)
                xml.close("d:response")
                continue
            }
            let context = PropertyContext(
                space: space, token: nil, entry: card.entry, data: card.data, addressDataProperties: subset)
            Self.writeResponse(.card(name), asking: asking, context: context, into: &xml)
        }
        return Self.multistatus(&xml)
    }
}
