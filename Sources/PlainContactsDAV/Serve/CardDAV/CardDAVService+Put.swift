#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// `PUT` of a card.
extension CardDAVService {
    /// The media types a card may be sent as (`Content-Type` without parameters).
    static let cardMediaTypes: Set<String> = ["text/vcard", "text/x-vcard", "text/directory"]

    /// Creates or replaces a card's person or group, on its `If-Match` / `If-None-Match`
    /// conditions, through the same mapping as `contacts sync` applies a server's card and one
    /// save under the store's lock.
    ///
    /// The card is read strictly before anything is written: a body that is not exactly one
    /// well-formed vCard is 400 (`CARDDAV:valid-address-data`), another media type 415, a card
    /// larger than ``maximumCardSize`` 403 (`CARDDAV:max-resource-size`), a UID that another card
    /// has 409 (`CARDDAV:no-uid-conflict`, naming it). Over an existing person the card wins
    /// property by property while what the card cannot carry is kept (``CardMerge``), so that
    /// lines of the card the model has no place for, kept before, stay. A new card keeps its UID
    /// and its href. The body is then served byte for byte, with its own strong ETag, until the
    /// record changes by another path (``CardDAVSentCards``). Answers 201 for a new card, 204 for
    /// a replaced one; with the new ETag when the card now served is the body byte for byte (RFC
    /// 9110 section 9.3.4, RFC 4791 section 5.3.4): not for a card the store had to complete (one
    /// without a `UID`), so that the client reads back the card the store made.
    func put(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, user: String?,
        book served: CardDAVServedBook
    ) throws -> HTTPServerResponse {
        let collection = served.collection
        guard case .card(let name) = resource else { throw CardDAVFailure(status: 405) }
        if let type = request.header("Content-Type") {
            let media = HTTPSyntax.trimmed(type.split(separator: ";", omittingEmptySubsequences: false)[0]).lowercased()
            guard Self.cardMediaTypes.contains(media) else { throw CardDAVFailure(status: 415) }
        }
        guard request.body.count <= Self.maximumCardSize else {
            throw CardDAVFailure(status: 403, condition: "card:max-resource-size")
        }
        let sent = try Self.readCard(request.body, name: name)
        let card = sent.card
        let uid = card.matchKey
        var created = false
        let written = try collection.write(name: name, uid: uid) { current in
            try Self.checkConditions(of: request, current: current)
            // A card of the other kind can never take this resource's place, whatever its UID.
            if let current, current.record.kind.rawValue != card.kind.rawValue {
                throw CardDAVFailure(status: 403, text: "a card cannot change from a person's to a group's or back; remove it first")
            }
            if let other = collection.name(ofUID: uid), other != name {
                var failure = CardDAVFailure(status: 409, condition: "card:no-uid-conflict")
                failure.conditionContent = "<d:href>" + WebDAVXMLWriter.escaped(space.cardHref(other)) + "</d:href>"
                throw failure
            }
            created = current == nil
            let book = try AddressBook(url: served.layout.root, options: served.options)
            let record: CardDAVEntry.Record
            switch card {
            case .person(let state, _, _): record = try save(state, over: current, in: book)
            case .group(let groupCard, _): record = try save(groupCard, sent: sent.vCard, over: current, in: book, of: collection)
            }
            afterWrite?(
                CardDAVWrite(
                    method: "PUT", record: record, user: user, userAgent: request.header("User-Agent"), book: served.name,
                    storeURL: served.layout.root))
            return CardDAVCollection.Written(record: record, sent: sent)
        }
        guard let written else { throw CardDAVFailure(status: 500) }
        var response = HTTPServerResponse(status: created ? 201 : 204)
        // An ETag tells the client that the card it sent is the card served (RFC 9110 section
        // 9.3.4): it is given when the card is kept as sent, else the client reads it back.
        if written.data == request.body { response.headers.append("ETag", written.entry.quotedETag) }
        return response
    }

    /// Reads a card sent by a client.
    ///
    /// - Throws: a 400 failure with `CARDDAV:valid-address-data` unless the body is exactly
    ///   one well-formed vCard.
    static func readCard(_ body: Data, name: String) throws -> CardDAVSentCard {
        do {
            let cards = try VCardReader.parse(body, source: name, strict: true)
            guard cards.count == 1 else { throw CardDAVFailure(status: 400, condition: "card:valid-address-data") }
            return CardDAVSentCard(data: body, vCard: cards[0], card: try CardMapping.read(body, href: name, strict: true))
        } catch let failure as CardDAVFailure {
            throw failure
        } catch {
            throw CardDAVFailure(status: 400, condition: "card:valid-address-data")
        }
    }

    /// Saves a person's card: over the person of the current card (the store's version is the
    /// base: what the card says wins, what it cannot carry is kept), or as a new person.
    private func save(_ theirs: PersonState, over current: CardDAVEntry?, in book: AddressBook) throws -> CardDAVEntry.Record {
        let person = try current.flatMap { try book.person(forKey: $0.record.key) }
        let applied = try book.saveCard(theirs, to: person, merging: .cardWins(datedByCard: false))
        guard let key = applied.person.key else { throw CardDAVFailure(status: 500) }
        return CardDAVEntry.Record(kind: .person, key: key)
    }

    /// Saves a group's card: over the group of the current card, or as a new group, keeping the
    /// card as `sent` (see ``GroupCard/keepSent(_:in:)``) so that it is read back as sent. A
    /// new group is saved before its members join it (a group must be saved to have members), so
    /// a new group with members takes two saves.
    private func save(
        _ card: GroupCard, sent: VCard, over current: CardDAVEntry?, in book: AddressBook, of collection: CardDAVCollection
    ) throws -> CardDAVEntry.Record {
        var existing: Group?
        if let current {
            guard let group = book.group(forKey: current.record.key) else { throw CardDAVFailure(status: 412) }
            existing = group
        }
        let group = try book.applyGroupCard(card, to: existing, keepingSent: sent)
        if existing == nil { try book.save() }
        try card.setMembers(of: group, in: book) { uid in collection.personKey(ofUID: uid) }
        try book.save()
        guard let key = group.key else { throw CardDAVFailure(status: 500) }
        return CardDAVEntry.Record(kind: .group, key: key)
    }
}
