import FoundationEssentials
import PlainContactsSystem

/// A group's card kept as a client sent it, so that the card is read back as sent while it
/// still says what the group says.
///
/// The group mapping keeps a group's name, UID, members and unknown lines, but not how the
/// card spelled them: Apple's `N` of a group (`N:ChangedGroup;;;;` beside `FN:Changed Group`),
/// member values that are not `urn:uuid:` (`X-ADDRESSBOOKSERVER-MEMBER:user03@example.com`),
/// the order of lines, `PRODID`, `REV`. So the card a client puts is kept whole in the group's
/// record, under `"vcardSent"`:
///
/// ```json
/// "vcardSent": {"lines": ["X-ADDRESSBOOKSERVER-KIND:group", "FN:Changed Group", "N:ChangedGroup;;;;"],
///               "version": "3.0"}
/// ```
///
/// The kept card is served in place of the one the mapping makes only while the mapping reads
/// it as the group's card now (same name, UID, members, form and other lines): once the group
/// is renamed or its members change, by a client or by the command line, the card is made
/// afresh, still spelling each member as the kept card did. The record's file key (``CardMapping/keyProperty``) is never kept; it is added when
/// the card is served.
///
/// ```swift
/// GroupCard.keepSent(card, in: &state)
/// let served = made.sentCard(in: state)   // the card as sent, or nil
/// ```
extension GroupCard {
    /// The record key where a group keeps the card a client last sent for it.
    static let sentKey = "vcardSent"

    /// Keeps a card as sent in a group's state, without the file key property.
    static func keepSent(_ card: VCard, in state: inout GroupState) {
        let lines = card.properties.filter { $0.name != CardMapping.keyProperty }.map(VCardWriter.contentLine)
        state.unknownFields[sentKey] = .object(["version": .string(card.version), "lines": .array(lines.map(JSONValue.string))])
    }

    /// The card kept in a group's state as sent; `nil` when there is none or it no longer reads
    /// strictly (a line edited by hand into a malformed one).
    static func keptSent(in state: GroupState) -> VCard? {
        guard case .object(let fields)? = state.unknownFields[sentKey], let version = fields["version"]?.string,
            case .array(let items)? = fields["lines"]
        else { return nil }
        let lines = items.compactMap(\.string)
        let text = (["BEGIN:VCARD", "VERSION:" + version] + lines + ["END:VCARD", ""]).joined(separator: "\r\n")
        guard let cards = try? VCardReader.parse(Data(text.utf8), source: "record", strict: true), cards.count == 1,
            cards[0].properties.count == lines.count
        else { return nil }
        return cards[0]
    }

    /// The member values of the card kept as sent, by match key: how a card made afresh spells
    /// the members it still has (`user03@example.com` stays without `urn:uuid:`).
    static func sentMemberValues(in state: GroupState) -> [String: String] {
        guard let sent = keptSent(in: state) else { return [:] }
        var values: [String: String] = [:]
        for property in sent.properties where property.name == "MEMBER" || property.name == "X-ADDRESSBOOKSERVER-MEMBER" {
            let value = VCardImporter.trimmed(property.text)
            let key = VCardRecordFields.matchKey(value)
            if !key.isEmpty, values[key] == nil { values[key] = value }
        }
        return values
    }

    /// The card kept in a group's state as sent, when it is this card in another spelling: the
    /// mapping reads it as this card, in this card's vCard version; `nil` otherwise.
    func sentCard(in state: GroupState) -> VCard? {
        guard let sent = Self.keptSent(in: state), sent.version == form.version.rawValue,
            let read = GroupCard(card: sent, href: ""), read == self
        else { return nil }
        return sent
    }
}
