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
        guard case .card(let name) = resource else { throw CardDAVFailure(status: 405) }
        if let type = request.header("Content-Type") {
            let media = HTTPSyntax.trimmed(type.split(separator: ";", omittingEmptySubsequences: false)[0]).lowercased()
            guard Self.cardMediaTypes.contains(media) else { throw CardDAVFailure(status: 415) }
        }
        guard request.body.count <= Self.maximumCardSize else {
            throw CardDAVFailure(status: 403, condition: "card:max-resource-size")
        }
        let sent = try Self.readCard(request.body, name: name)
        let written: CardDAVWriter.Put
        do {
            written = try served.writer.put(
                sent, named: name, preconditions: CardDAVPreconditions(request), client: Self.client(of: request, user: user))
        } catch let taken as CardDAVWriter.UIDTaken {
            var failure = CardDAVFailure(status: 409, condition: "card:no-uid-conflict")
            failure.conditionContent = "<d:href>" + WebDAVXMLWriter.escaped(space.cardHref(taken.name)) + "</d:href>"
            throw failure
        }
        var response = HTTPServerResponse(status: written.created ? 201 : 204)
        // An ETag tells the client that the card it sent is the card served (RFC 9110 section
        // 9.3.4): it is given when the card is kept as sent, else the client reads it back.
        if written.data == request.body { response.headers.append("ETag", written.entry.quotedETag) }
        return response
    }

    /// Who sent a write request, as the writer reports it.
    static func client(of request: HTTPServerRequest, user: String?) -> CardDAVWriter.Client {
        CardDAVWriter.Client(user: user, userAgent: request.header("User-Agent"))
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
}
