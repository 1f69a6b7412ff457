#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// The `addressbook-query` report (RFC 6352 section 8.6).
extension CardDAVService {
    /// Answers the properties of the cards that pass the query's filter (see
    /// ``CardDAVQueryFilter``), in the order of their names, with `address-data` in the vCard
    /// version asked for (see ``CardDAVAddressDataType/version(askedIn:)``). With a `limit`, the first cards are
    /// answered and a 507 response for the collection says the answer was cut. With `only`, the
    /// query is on that card alone (404 when the address book has none of that name).
    func query(_ body: WebDAVElement, space: CardDAVURLSpace, book: CardDAVServedBook, card only: String? = nil) throws
        -> HTTPServerResponse
    {
        let collection = book.collection
        let asking = try Self.propertyRequest(in: body, required: false)
        let subset = CardDAVPropertyRequest.addressDataProperties(in: body)
        let version = try CardDAVAddressDataType.version(askedIn: body)
        let filter = try CardDAVQueryFilter(body.child(.cardDAV("filter")))
        let limit = try Self.resultLimit(of: body, namespace: .cardDAV("limit"))
        let names: [String]
        if let only {
            names = [only]
        } else {
            names = try collection.listing().entries.keys.sorted()
        }
        let cards = try collection.cards(named: names)
        if let only, cards[only] == nil { throw CardDAVFailure(status: 404, text: "no card has this name") }
        var matched: [(name: String, card: (entry: CardDAVEntry, data: Data))] = []
        var truncated = false
        for name in cards.keys.sorted() {
            guard let card = cards[name], let parsed = try? VCardReader.parse(card.data, source: name).first,
                filter.matches(parsed)
            else { continue }
            if let limit, matched.count >= limit {
                truncated = true
                break
            }
            matched.append((name, card))
        }
        // The filter reads each card as it came in; the cards answered are made in the version asked.
        let converting = asking.wantsAddressData && version != nil
        let answered =
            converting
            ? try collection.converted(Dictionary(matched.map { ($0.name, $0.card) }, uniquingKeysWith: { first, _ in first }), to: version)
            : [:]
        var xml = WebDAVXMLWriter(root: "d:multistatus", capacity: 512 + matched.count * 800)
        for (name, matchedCard) in matched {
            guard let card = converting ? answered[name] : matchedCard else { continue }
            let context = PropertyContext(
                space: space, token: nil, entry: card.entry, data: asking.wantsAddressData ? card.data : nil,
                addressDataProperties: subset)
            Self.writeResponse(.card(name), asking: asking, context: context, into: &xml)
        }
        if truncated { Self.writeTruncation(href: space.collectionHref, into: &xml) }
        return Self.multistatus(&xml)
    }
}
