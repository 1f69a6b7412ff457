import FoundationEssentials

/// Maps vCards (2.1, 3.0 and 4.0, with Apple's extensions) to people and groups.
///
/// A person card becomes a detached ``Person``; nothing is added to a book. The mapping:
///
/// | vCard | person |
/// |---|---|
/// | `N` (last;first;middle;prefix;suffix) | name parts |
/// | `FN` | first name when `N` is empty, unless it repeats the nickname or organization (organization name for an organization card); otherwise the formatted name, when it differs from the first-name-first composite name |
/// | `KIND:org`, `X-ABSHOWAS:COMPANY` | kind organization |
/// | `ORG` (organization;department;more units joined with ", ") | organization, department |
/// | each text property's own (``TextProperty``): `NICKNAME` (all, comma lists joined with ", "), `X-PHONETIC-FIRST-NAME`, `-MIDDLE-`, `-LAST-NAME`, `TITLE`, `NOTE` (all, joined with a blank line)… | that property, as its ``TextProperty/Repeats`` says |
/// | `BDAY` | birthday (see ``VCardValues/date(_:)``); unparseable text is kept as an unmapped line |
/// | `ANNIVERSARY`, `X-ABDATE` | dates, labelled anniversary / by `X-ABLabel` |
/// | `X-ABRELATEDNAMES`, `RELATED` with a text value | related names |
/// | `TEL`, `EMAIL`, `URL`, `ADR` (+ `X-ABADR` country code) | phones, emails, URLs, addresses |
/// | `IMPP`, `X-AIM`, `X-JABBER`, `X-SKYPE`, `X-ICQ`, `X-MSN`, `X-YAHOO`… | instant messages |
/// | `X-SOCIALPROFILE` | social profiles |
/// | `PHOTO` (inline base64 or `data:` URI) | image |
/// | `CATEGORIES` | ``ImportedPerson/groupNames`` |
/// | `UID` | ``ImportedPerson/uid`` and the record's `"uid"` field |
///
/// Labels come from the item group's `X-ABLabel`, else from `TYPE` (see ``VCardLabels``).
/// `PRODID` and `REV` are dropped. Every other property, and every later occurrence of a
/// single-valued one, is kept verbatim in the record's `"vcard"` field (see
/// ``VCardRecordFields``), as is an `X-ABLabel` whose item group holds anything not mapped
/// with that label.
///
/// ```swift
/// for card in try VCardReader.parse(data, source: "export.vcf") {
///     if case .person(let imported) = try VCardImporter.map(card, source: "export.vcf") {
///         print(imported.person.compositeName ?? "", imported.groupNames)
///     }
/// }
/// ```
enum VCardImporter {
    /// Maps one card.
    ///
    /// Leniently (`strict` false), a `PHOTO` whose base64 text cannot be read is kept as an
    /// unmapped line and a group card without a name is named "Unnamed group", each with a
    /// warning in the result.
    ///
    /// - Throws: with `strict`, ``PlainContactsError/Code/malformedVCard`` with `path` set to `source`
    ///   and `line` set to the property's line, for a `PHOTO` whose base64 text is invalid or a
    ///   group card without a name.
    static func map(_ card: VCard, source: String, strict: Bool = true) throws -> ImportedCard {
        if isGroupCard(card) {
            return .group(try group(card, source: source, strict: strict))
        }
        var mapping = VCardPersonMapping(card: card, source: source, strict: strict)
        return .person(try mapping.run())
    }

    /// Maps one card strictly without keeping what it maps to: the errors an import of the
    /// card would meet, for a check of a file before any of it is imported.
    ///
    /// ```swift
    /// for card in try VCardReader.parse(data, source: "export.vcf") {
    ///     try VCardImporter.check(card, source: "export.vcf")
    /// }
    /// ```
    ///
    /// - Throws: ``PlainContactsError/Code/malformedVCard`` as ``map(_:source:strict:)`` does.
    static func check(_ card: VCard, source: String) throws {
        _ = try map(card, source: source)
    }

    /// The name a group card without `FN` or `N` gets when read leniently.
    static let unnamedGroupName = "Unnamed group"

    /// Whether the card describes a group: `KIND:group` or `X-ADDRESSBOOKSERVER-KIND:group`.
    static func isGroupCard(_ card: VCard) -> Bool {
        card.properties.contains { property in
            (property.name == "KIND" || property.name == "X-ADDRESSBOOKSERVER-KIND")
                && trimmed(property.text).lowercased() == "group"
        }
    }

    private static func group(_ card: VCard, source: String, strict: Bool) throws -> ImportedGroup {
        var name = card.first(named: "FN").map { trimmed($0.text) } ?? ""
        if name.isEmpty, let structured = card.first(named: "N") {
            name = structured.components.filter { !$0.isEmpty }.joined(separator: " ")
        }
        var warnings: [InterchangeError] = []
        if name.isEmpty {
            guard !strict else {
                throw InterchangeError(
                    .malformedVCard, "the group card has no FN or N to name the group", path: source,
                    line: card.startLine)
            }
            name = unnamedGroupName
            warnings.append(
                InterchangeError(
                    .malformedVCard, "The group card has no FN or N; the group was named \"\(name)\".",
                    path: source, line: card.startLine))
        }
        let uid = card.first(named: "UID").map { trimmed($0.text) }
        let members = card.properties
            .filter { $0.name == "MEMBER" || $0.name == "X-ADDRESSBOOKSERVER-MEMBER" }
            .map { trimmed($0.text) }
            .filter { !$0.isEmpty }
        let kept = card.properties.filter { $0.name == KeptField.propertyName }.map(VCardWriter.contentLine)
        return ImportedGroup(
            name: name, uid: (uid?.isEmpty ?? true) ? nil : uid, memberUIDs: members, keptLines: kept,
            line: card.startLine, warnings: warnings)
    }

    /// The text without spaces and tabs at both ends.
    static func trimmed(_ text: String) -> String {
        String(VCardText.trimmingWhitespace(Substring(text)))
    }
}
