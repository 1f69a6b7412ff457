import FoundationEssentials
import PlainContactsSystem

/// A group as a card on a CardDAV server, in either of the two forms servers and phones use.
///
/// Apple's form, which iCloud and iOS write, is a vCard 3.0 with
/// `X-ADDRESSBOOKSERVER-KIND:group` and one `X-ADDRESSBOOKSERVER-MEMBER` per member; RFC 6350's
/// is a vCard 4.0 with `KIND:group` and `MEMBER`. Both name members by `urn:uuid:` and the
/// member card's `UID`. A group card keeps the form it came in; a new group card uses Apple's.
///
/// ```swift
/// let card = GroupCard(name: "Friends", uid: "6d3a…", members: ["d69c…"], lines: [])
/// let text = card.serialized()   // BEGIN:VCARD, VERSION:3.0, …, X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:d69c…
/// ```
package struct GroupCard: Hashable, Sendable {
    /// How a card says it is a group and names its members.
    enum Form: String, Hashable, Sendable {
        /// `X-ADDRESSBOOKSERVER-KIND:group`, `X-ADDRESSBOOKSERVER-MEMBER`, vCard 3.0.
        case apple
        /// `KIND:group`, `MEMBER`, vCard 4.0.
        case rfc6350

        var kindProperty: String { self == .apple ? "X-ADDRESSBOOKSERVER-KIND" : "KIND" }
        var memberProperty: String { self == .apple ? "X-ADDRESSBOOKSERVER-MEMBER" : "MEMBER" }
        var version: VCardVersion { self == .apple ? .v3 : .v4 }
    }

    /// The group's name, from `FN` (else `N`).
    var name: String
    /// The card's `UID` as written.
    var uid: String
    /// The members' UIDs (``VCardRecordFields/matchKey(_:)`` form), sorted, without repeats.
    var members: [String]
    /// The form the card is in.
    var form: Form = .apple
    /// The card's other content lines, as written: what the store has no place for.
    var lines: [String] = []

    /// The properties the group mapping reads or the writer makes; every other line is kept.
    private static let mappedProperties: Set<String> = [
        "BEGIN", "END", "VERSION", "PRODID", "REV", "FN", "N", "UID", "KIND", "X-ADDRESSBOOKSERVER-KIND", "MEMBER",
        "X-ADDRESSBOOKSERVER-MEMBER",
    ]

    init(name: String, uid: String, members: [String], form: Form = .apple, lines: [String] = []) {
        self.name = name
        self.uid = uid
        self.members = Array(Set(members)).sorted()
        self.form = form
        self.lines = lines
    }

    /// The group a group card describes; `nil` for a card that is not a group card.
    init?(card: VCard, href: String) {
        guard VCardImporter.isGroupCard(card) else { return nil }
        let isRFC = card.properties.contains { $0.name == "KIND" && VCardImporter.trimmed($0.text).lowercased() == "group" }
        var name = card.first(named: "FN").map { VCardImporter.trimmed($0.text) } ?? ""
        if name.isEmpty, let structured = card.first(named: "N") {
            name = structured.components.filter { !$0.isEmpty }.joined(separator: " ")
        }
        let uid = card.first(named: "UID").map { VCardImporter.trimmed($0.text) } ?? ""
        let members = card.properties
            .filter { $0.name == "MEMBER" || $0.name == "X-ADDRESSBOOKSERVER-MEMBER" }
            .map { VCardRecordFields.matchKey(VCardImporter.trimmed($0.text)) }
            .filter { !$0.isEmpty }
        self.init(
            name: name.isEmpty ? VCardImporter.unnamedGroupName : name, uid: uid.isEmpty ? CardMapping.uid(forHref: href) : uid,
            members: members, form: isRFC ? .rfc6350 : .apple,
            lines: card.properties.filter { !Self.mappedProperties.contains($0.name) }.map(VCardWriter.contentLine))
    }

    /// The card, with `N`, `FN`, the kind, `UID`, the members and the kept lines. A member is
    /// written as `memberValues` spells it (by match key), else as `urn:uuid:` and its UID.
    func card(memberValues: [String: String] = [:]) -> VCard {
        var properties: [VCardProperty] = []
        if form == .apple { properties.append(VCardProperty(name: "N", structured: [[name]])) }
        properties.append(VCardProperty(name: "FN", text: name))
        properties.append(VCardProperty(name: form.kindProperty, text: "group"))
        properties.append(VCardProperty(name: "UID", text: uid))
        for member in members {
            let value = memberValues[member] ?? (member.contains(":") ? member : "urn:uuid:" + member)
            properties.append(VCardProperty(name: form.memberProperty, text: value))
        }
        properties.append(contentsOf: VCardExporter.keptProperties(lines))
        return VCard(version: form.version.rawValue, properties: properties)
    }

    /// The card's bytes, as uploaded, carrying the group's file key and ID when given (see
    /// ``CardMapping/keyProperty``).
    package func serialized(key: RecordKey? = nil, id: RecordID = .invalid) -> Data {
        var card = card()
        if let line = CardMapping.keyLine(key, id: id) { card.properties.append(line) }
        return Data(VCardWriter.serialize(card).utf8)
    }

    /// The group as a JSON object, the form its last synced version is kept in.
    package var json: JSONValue {
        .object([
            "name": .string(name), "uid": .string(uid), "members": .array(members.map(JSONValue.string)),
            "form": .string(form.rawValue), "vcard": .array(lines.map(JSONValue.string)),
        ])
    }

    /// Reads ``json``; `nil` when a field is missing or of the wrong type.
    package init?(json: JSONValue) {
        guard case .object(let fields) = json, let name = fields["name"]?.string, let uid = fields["uid"]?.string,
            case .array(let members)? = fields["members"], let form = fields["form"]?.string.flatMap(Form.init),
            case .array(let lines)? = fields["vcard"]
        else { return nil }
        self.init(name: name, uid: uid, members: members.compactMap(\.string), form: form, lines: lines.compactMap(\.string))
    }
}

extension GroupCard {
    /// The record key where a group keeps the form of its card (absent for Apple's form).
    static let formKey = "vcardForm"

    /// The member UID a kept content line names, when the line is a `MEMBER` or
    /// `X-ADDRESSBOOKSERVER-MEMBER` line: a member the store has no person for.
    static func memberKey(ofLine line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        var head = line[..<colon]
        if let semicolon = head.firstIndex(of: ";") { head = head[..<semicolon] }
        if let dot = head.lastIndex(of: ".") { head = head[head.index(after: dot)...] }
        let name = head.uppercased()
        guard name == "MEMBER" || name == "X-ADDRESSBOOKSERVER-MEMBER" else { return nil }
        let key = VCardRecordFields.matchKey(VCardImporter.trimmed(String(line[line.index(after: colon)...])))
        return key.isEmpty ? nil : key
    }

    /// The line naming a member in this card's form.
    func memberLine(_ key: String) -> String {
        "\(form.memberProperty):\(key.contains(":") ? key : "urn:uuid:" + key)"
    }
}
