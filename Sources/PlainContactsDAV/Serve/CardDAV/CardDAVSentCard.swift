#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// A card a client put, as it sent it and as the store reads it: what a write offers
/// ``CardDAVSentCards`` to keep.
///
/// A card is kept as sent only when the record saved from it says what it says, read back from
/// the record's files: the card, applied again over the record, would change nothing. That
/// leaves out a card the store had to complete (one without a `UID`, which the store gives it
/// from its resource name), and a save that a change by another path overtook between the save
/// and this reading. Such a `PUT` is answered without an ETag, and the client reads the card the
/// store made.
///
/// ```swift
/// let sent = try CardDAVService.readCard(request.body, name: "k.vcf")
/// sent.isKept(by: record, in: RecordCards(layout: layout), ownCard: made)   // true: serve the body as sent
/// ```
struct CardDAVSentCard {
    /// The body of the `PUT`.
    var data: Data
    /// The card as the mapping reads it.
    var card: CardMapping.Card
    /// Whether the card names its `UID`.
    var hasUID: Bool

    /// The card as the vCard reader reads it.
    var vCard: VCard

    /// A card sent: its bytes, the one card they hold, and what the mapping reads it as.
    init(data: Data, vCard: VCard, card: CardMapping.Card) {
        self.data = data
        self.vCard = vCard
        self.card = card
        hasUID = !vCard.properties(named: "UID").isEmpty
    }

    /// Whether the record's files now say what the card says.
    ///
    /// - Parameter ownCard: the card the store makes from the record's files now.
    func isKept(by record: CardDAVEntry.Record, in cards: RecordCards, ownCard: CardDAVCardMaker.Made) -> Bool {
        guard hasUID else { return false }
        switch card {
        case .person(let theirs, _, _):
            return record.kind == .person && cards.person(record.key, says: theirs)
        case .group(let sent, _):
            guard record.kind == .group, let data = ownCard.data,
                case .group(let own, _)? = try? CardMapping.read(data, href: "")
            else { return false }
            return own == sent
        }
    }
}
