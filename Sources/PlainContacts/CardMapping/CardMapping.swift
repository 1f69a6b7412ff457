import FoundationEssentials
import PlainContactsSystem

/// The mapping between records and CardDAV cards, for `contacts sync` and `contacts serve`
/// alike: what a card becomes in the store and what a record becomes as a card, through the
/// same lossless mapping as `contacts import` and `contacts export`.
///
/// A person card keeps every line the model has no place for (see ``VCardRecordFields``),
/// including its `CATEGORIES`: a sync maps groups through group cards only (see
/// ``GroupCard``), so categories travel with the card untouched rather than turning into
/// groups that would then be written twice.
///
/// ```swift
/// let card = try CardMapping.read(data, href: "/dav/me/contacts/d69c.vcf")
/// if case .person(let state, let uid, _) = card { print(uid, state.values.count) }
/// ```
package enum CardMapping {
    /// A card read from the server, with where a record made from it is placed in the store:
    /// by its UID and the file key and record ID it carries (see ``keyProperty``).
    package enum Card: Sendable {
        case person(PersonState, uid: String, placement: RecordPlacement)
        case group(GroupCard, placement: RecordPlacement)

        /// The card's UID, in ``VCardRecordFields/matchKey(_:)`` form: what matches it with a record.
        package var matchKey: String {
            switch self {
            case .person(_, let uid, _): VCardRecordFields.matchKey(uid)
            case .group(let group, _): VCardRecordFields.matchKey(group.uid)
            }
        }
    }

    /// The version of the way a person's card is made from the person's record file (this
    /// mapping, and vCard writing under it): raised whenever a change can make a different card
    /// from the same file, so that a server that names a card's version by its record file and
    /// this number (its ETag) tells clients of every card that changed.
    /// `CardMappingVersionTests` fails until it is raised.
    static let personCardVersion = 2

    /// The file key and record ID a card carries.
    struct CarriedKey: Sendable, Hashable {
        var key: RecordKey
        var id: RecordID?
    }

    /// The property a sync's cards carry the record's file key in, with its record ID as the
    /// `X-ID` parameter (`X-PLAINCONTACTS-KEY;X-ID=12:katie-bell-7kq2mx`), so that another
    /// clone that takes the card from the account before it pulls the record names its file
    /// and numbers it alike (see ``RecordPlacement``). It is read off every card and never kept
    /// among its lines.
    static let keyProperty = "X-PLAINCONTACTS-KEY"
    private static let idParameter = "X-ID"

    /// The file key and record ID a card carries, if it does.
    static func carriedKey(in card: VCard) -> CarriedKey? {
        guard let property = card.first(named: keyProperty),
            let key = RecordKey(rawValue: VCardImporter.trimmed(property.text))
        else { return nil }
        let id = property.parameter(named: idParameter).first.flatMap { Int32($0) }.map(RecordID.init(rawValue:))
        return CarriedKey(key: key, id: id.flatMap { $0.isValid ? $0 : nil })
    }

    /// The key property's line for a record's key and ID.
    static func keyLine(_ key: RecordKey?, id: RecordID) -> VCardProperty? {
        guard let key else { return nil }
        let parameters = id.isValid ? [VCardParameter(name: idParameter, values: [String(id.rawValue)])] : []
        return VCardProperty(name: keyProperty, parameters: parameters, text: key.rawValue)
    }

    /// Reads a card fetched from `href`.
    ///
    /// A card without `UID` is named by its href (see ``uid(forHref:)``), and that name becomes
    /// its UID in the store, so that the next sync finds the same pair.
    ///
    /// With `strict`, the card is read as `contacts import --strict` reads it: syntax errors,
    /// broken base64 and a nameless group card are refused rather than recovered from.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedVCard`` naming the href when the data holds
    ///   no card, or (with `strict`) a card that is not well formed.
    package static func read(_ data: Data, href: String, strict: Bool = false) throws -> Card {
        let cards: [VCard]
        do {
            cards = try VCardReader.parse(data, source: href, strict: strict)
        } catch let error as InterchangeError {
            throw InterchangeError(.malformedVCard, "the server's card is unreadable: \(error.message)", path: href)
        }
        guard var card = cards.first else {
            throw InterchangeError(.malformedVCard, "the server sent no vCard for this card", path: href)
        }
        let key = carriedKey(in: card)
        card.properties.removeAll { $0.name == keyProperty }
        if strict, VCardImporter.isGroupCard(card) {
            _ = try VCardImporter.map(card, source: href, strict: true)
        }
        if let group = GroupCard(card: card, href: href) { return .group(group, placement: placement(uid: group.uid, key: key)) }
        let mapped: ImportedCard
        do {
            mapped = try VCardImporter.map(card, source: href, strict: strict)
        } catch let error as InterchangeError {
            throw InterchangeError(.malformedVCard, "the card is unreadable: \(error.message)", path: href)
        }
        guard case .person(let imported) = mapped else {
            throw InterchangeError(.malformedVCard, "the server's card is neither a person nor a group", path: href)
        }
        var state = imported.person.state
        let categories = card.properties.filter { $0.name == "CATEGORIES" }.map(VCardWriter.contentLine)
        if !categories.isEmpty {
            VCardRecordFields.setLines(VCardRecordFields.lines(of: state) + categories, in: &state)
        }
        let uid = imported.uid ?? uid(forHref: href)
        VCardRecordFields.setUID(uid, in: &state)
        if let revision = card.first(named: "REV").flatMap({ revisionDate(VCardImporter.trimmed($0.text)) }) {
            state.values[.modificationDate] = .timestamp(revision)
        }
        return .person(state, uid: uid, placement: placement(uid: uid, key: key))
    }

    /// Where a record made from a card with `uid`, carrying `key`, is placed in the store.
    private static func placement(uid: String, key: CarriedKey?) -> RecordPlacement {
        RecordPlacement(uid: VCardRecordFields.matchKey(uid), carriedKey: key?.key, carriedID: key?.id)
    }

    /// The UID of a person as a sync matches it: the stored one, else the one export derives
    /// from the record key.
    package static func matchKey(of person: Person) -> String? {
        let stored = VCardRecordFields.uid(of: person.state)
        guard let key = person.key else { return stored.map(VCardRecordFields.matchKey) }
        return matchKey(storedUID: stored, key: key)
    }

    /// The UID of a person with file key `key` as a sync matches it, from the UID stored in its
    /// record (`nil` or empty when none): what `matchKey(of:)` gives for the person.
    static func matchKey(storedUID: String?, key: RecordKey) -> String {
        if let storedUID, !storedUID.isEmpty { return VCardRecordFields.matchKey(storedUID) }
        return VCardRecordFields.derivedUID(for: key)
    }

    /// The UID of a group as a sync matches it: the stored one, else one derived from its key.
    package static func matchKey(of group: Group) -> String? {
        if case .string(let uid)? = group.state.unknownFields[VCardRecordFields.uidKey], !uid.isEmpty {
            return VCardRecordFields.matchKey(uid)
        }
        return group.key.map(VCardRecordFields.derivedUID(for:))
    }

    /// The UID given to a card that has none: its href's last path segment without `.vcf`.
    static func uid(forHref href: String) -> String {
        var name = href.split(separator: "/").last.map(String.init) ?? href
        if name.lowercased().hasSuffix(".vcf") { name.removeLast(4) }
        return name.removingPercentEncoding ?? name
    }

    /// The card of a person in `version`, or by default in the version of the card it came from
    /// (3.0 for a person that came from none, or from a 2.1 card), carrying the record's file key
    /// (``keyProperty``) unless told not to.
    ///
    /// - Parameters:
    ///   - imageData: the person's image bytes (``Person/imageData()``, or a ``StoreReader``'s
    ///     for a person read without a book).
    ///   - carryingKey: whether the card carries the record's file key: `contacts sync`'s cards
    ///     do, for another clone to name the record alike; the cards `contacts serve` gives its
    ///     clients do not (they never come back by another path).
    package static func data(
        for person: Person, imageData: Data?, version asked: VCardVersion? = nil, carryingKey: Bool = true
    ) -> Data {
        let version = asked ?? VCardOrigin(of: person.state).flatMap { VCardVersion(rawValue: $0.version) } ?? .v3
        var card = VCardExporter.card(for: person, groupNames: [], imageData: imageData, version: version)
        if case .timestamp(let modified)? = person.state.values[.modificationDate] {
            card.properties.append(VCardProperty(name: "REV", rawValue: revisionText(modified)))
        }
        if carryingKey, let line = keyLine(person.key, id: person.recordID) { card.properties.append(line) }
        return Data(VCardWriter.serialize(card).utf8)
    }

    /// A card's `REV` as a date: the basic form vCard 4.0 writes (`20261126T134500Z`) or the
    /// extended one (`2026-11-26T13:45:00Z`); `nil` for a date without a time or anything else.
    ///
    /// A record made from a card, or changed by it, takes this as its modification date, so
    /// that every clone that takes the same card writes the same bytes.
    static func revisionDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[8] == UInt8(ascii: "T"), !bytes.contains(UInt8(ascii: "-")) else {
            return Timestamp.parse(text)
        }
        let digits = String(decoding: bytes, as: UTF8.self)
        func part(_ from: Int, _ length: Int) -> Substring {
            let start = digits.index(digits.startIndex, offsetBy: from)
            return digits[start..<digits.index(start, offsetBy: length)]
        }
        return Timestamp.parse("\(part(0, 4))-\(part(4, 2))-\(part(6, 2))T\(part(9, 2)):\(part(11, 2)):\(part(13, 2))Z")
    }

    /// A modification date as a card's `REV`, in the basic form both vCard 3.0 and 4.0 read.
    static func revisionText(_ date: Date) -> String {
        Timestamp.format(date).filter { $0 != "-" && $0 != ":" }
    }

    /// The file name of a new card on the server: its UID when that is safe in a URL, else a
    /// digest of it, with `.vcf`.
    package static func fileName(forUID uid: String) -> String {
        let safe = !uid.isEmpty && uid.utf8.count <= 120
            && uid.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
            && !uid.hasPrefix(".")
        return (safe ? uid : SHA256.hexString(Array(SHA256.hash(uid.utf8).prefix(16)))) + ".vcf"
    }
}
