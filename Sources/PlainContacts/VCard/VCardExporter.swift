import FoundationEssentials

/// Turns a person into a vCard 3.0 or 4.0, the inverse of ``VCardImporter``.
///
/// The card holds, in this order: `N`, `FN` (the formatted name, else the first-name-first
/// composite name), `KIND:org` (4.0) for an organization, the text properties of the name
/// section (``TextProperty/Section/name``: `NICKNAME`, `X-PHONETIC-*`), `ORG`, those of the
/// work section (`TITLE`), `X-ABSHOWAS:COMPANY` (3.0) for an organization, `BDAY`, `TEL`,
/// `EMAIL`, `ADR`, `URL`, the dates (`X-ABDATE`; in 4.0 the first anniversary as
/// `ANNIVERSARY`), related names (`X-ABRELATEDNAMES`), `IMPP`, `X-SOCIALPROFILE`, those of the
/// notes section (`NOTE`), `PHOTO`, `CATEGORIES`, `UID`, then the record's kept lines verbatim,
/// except those that would repeat a single-valued property written above. Within a section,
/// text properties come in the order of ``TextProperty/all``.
///
/// A label with a `TYPE` equivalent is written as `TYPE` (`TEL;TYPE=FAX,HOME`); any other label
/// puts the value in an Apple item group with an `X-ABLabel` (`item1.TEL` and
/// `item1.X-ABLABEL:_$!<Assistant>!$_`, or the custom text). Item groups already used by kept
/// lines are not reused. A birthday or date without a year is `--MM-DD` in 4.0 and Apple's
/// `X-APPLE-OMIT-YEAR=1604` form in 3.0. The `UID` is the stored one, else one derived from
/// the record key (``VCardRecordFields/derivedUID(for:)``, with `urn:uuid:` in 4.0); a person
/// never saved and without a stored UID gets none.
///
/// ```swift
/// let card = VCardExporter.card(for: katie, groupNames: ["Friends"], imageData: nil, version: .v3)
/// let text = VCardWriter.serialize(card)
/// ```
enum VCardExporter {
    /// Properties a card holds once; a kept line of one of these is dropped when the card
    /// already has it. Besides these, the text properties a card holds once
    /// (``TextProperty/Repeats/once``, such as `X-PHONETIC-FIRST-NAME`).
    static let singleValued: Set<String> = Set(
        ["N", "FN", "UID", "KIND", "BDAY", "ANNIVERSARY", "X-ABSHOWAS"]
            + TextProperty.all.compactMap { text in
                if case .text(let name, .once) = text.vCard { name } else { nil }
            })

    /// Properties the writer produces itself; kept lines of these are always dropped.
    private static let structural: Set<String> = ["VERSION", "PRODID", "REV", "BEGIN", "END"]

    /// The card of a person with its group names and image bytes.
    ///
    /// When the person came from a card of this version, each value that did not change since
    /// is written as that card's lines (see ``VCardOrigin``); from a card of another version,
    /// each such value is written afresh with the parameters and `TYPE` words of its line that
    /// export would not write (`PREF`, `X-…`), so that they are not lost either.
    static func card(
        for person: Person, groupNames: [String], imageData: Data?, version: VCardVersion
    ) -> VCard {
        let kept = keptProperties(VCardRecordFields.lines(of: person.state))
        let origin = VCardOrigin(of: person.state)
        let sameVersion = origin?.version == version.rawValue
        let originals = origin.map { originalProperties($0, state: person.state) } ?? [:]
        var reserved = Set(kept.compactMap { $0.group.map(VCardText.asciiUppercased) })
        for properties in originals.values where sameVersion {
            reserved.formUnion(properties.compactMap { $0.group.map(VCardText.asciiUppercased) })
        }
        var assembly = VCardAssembly(version: version, reservedGroups: reserved)
        if sameVersion { assembly.replacedValues = Set(originals.keys) }
        assembly.appendValues(of: person, groupNames: groupNames, imageData: imageData)
        if sameVersion {
            assembly.substitute(originals)
        } else {
            assembly.carryParameters(from: originals)
        }
        assembly.appendKept(kept)
        return VCard(version: version.rawValue, properties: assembly.properties)
    }

    /// The properties export makes for each value of a person, by value name (see
    /// ``VCardOrigin``), without kept lines or origin lines: what the card's own lines are
    /// compared with on import.
    static func generatedValues(of person: Person, version: VCardVersion) -> [String: [VCardProperty]] {
        var assembly = VCardAssembly(version: version, reservedGroups: [])
        assembly.appendValues(of: person, groupNames: [], imageData: nil)
        return assembly.propertiesByValue
    }

    /// The origin's lines as properties, for each value whose fingerprint still matches.
    private static func originalProperties(_ origin: VCardOrigin, state: PersonState) -> [String: [VCardProperty]] {
        var result: [String: [VCardProperty]] = [:]
        for (name, source) in origin.sources where VCardOrigin.fingerprint(of: name, in: state) == source.fingerprint {
            let properties = keptProperties(source.lines)
            // A line that no longer parses makes the value's lines unusable: write it afresh.
            guard properties.count == source.lines.count else { continue }
            result[name] = zip(properties, source.lines).map { property, line in
                var verbatim = property
                verbatim.verbatim = line
                return verbatim
            }
        }
        return result
    }

    /// The kept content lines as properties: read together strictly, or else one at a time
    /// leniently, so that a line that is not a property (kept verbatim from a card) is written
    /// back as it came, and a structural line is left out.
    static func keptProperties(_ lines: [String]) -> [VCardProperty] {
        guard !lines.isEmpty else { return [] }
        if let properties = parse(lines, strict: true) { return properties }
        return lines.flatMap { parse([$0], strict: false) ?? [] }
    }

    private static func parse(_ lines: [String], strict: Bool) -> [VCardProperty]? {
        let text = "BEGIN:VCARD\r\n" + lines.joined(separator: "\r\n") + "\r\nEND:VCARD\r\n"
        guard let cards = try? VCardReader.parse(Data(text.utf8), source: "record", strict: strict), cards.count == 1
        else {
            return nil
        }
        return cards[0].properties.filter { !structural.contains($0.name) }
    }
}

/// The properties of one card being exported, with the item groups handed out so far.
private struct VCardAssembly {
    let version: VCardVersion
    /// Upper-case item groups of kept and original lines, never handed out.
    let reservedGroups: Set<String>
    private(set) var properties: [VCardProperty] = []
    /// The value name (see ``VCardOrigin``) of each property, `nil` for one of no tracked value.
    private var valueNames: [String?] = []
    /// The value name of the properties appended next.
    private var currentValue: String?
    /// The values whose original lines will replace what is made for them (see ``substitute(_:)``).
    var replacedValues: Set<String> = []
    private var nextItem = 1

    init(version: VCardVersion, reservedGroups: Set<String>) {
        self.version = version
        self.reservedGroups = reservedGroups
    }

    mutating func append(_ property: VCardProperty) {
        properties.append(property)
        valueNames.append(currentValue)
    }

    /// Appends what `body` appends as the value named `name`.
    private mutating func value(_ name: String?, _ body: (inout Self) -> Void) {
        currentValue = name
        body(&self)
        currentValue = nil
    }

    /// The properties of each named value.
    var propertiesByValue: [String: [VCardProperty]] {
        var result: [String: [VCardProperty]] = [:]
        for (property, name) in zip(properties, valueNames) {
            if let name { result[name, default: []].append(property) }
        }
        return result
    }

    /// Everything but kept lines: names, organization, dates, communication, notes, photo,
    /// categories, UID.
    mutating func appendValues(of person: Person, groupNames: [String], imageData: Data?) {
        appendNames(person)
        appendOrganization(person)
        if let birthday = person.birthday {
            value("BDAY") { $0.append(VCardValues.dateProperty(name: "BDAY", date: birthday, version: $0.version)) }
        }
        appendCommunication(person)
        appendDates(person.dates)
        for entry in person.relatedNames {
            value(VCardOrigin.name(of: .relatedNames, entry.identifier)) {
                $0.appendLabelled(
                    VCardProperty(name: "X-ABRELATEDNAMES", text: entry.value), label: entry.label, kind: .relatedName)
            }
        }
        appendInstantMessages(person.instantMessages)
        appendSocialProfiles(person.socialProfiles)
        appendTexts(of: person, in: .notes)
        if let imageData, !imageData.isEmpty { appendPhoto(imageData) }
        let names = groupNames.filter { !$0.isEmpty }
        if !names.isEmpty {
            let list = names.map(VCardText.escape).joined(separator: ",")
            append(VCardProperty(name: "CATEGORIES", rawValue: list))
        }
        if let uid = VCardRecordFields.uid(of: person.state) {
            append(VCardProperty(name: "UID", text: uid))
        } else if let key = person.key {
            let derived = VCardRecordFields.derivedUID(for: key)
            append(VCardProperty(name: "UID", rawValue: version == .v4 ? "urn:uuid:" + derived : derived))
        }
    }

    /// Adds to the main property made for each value the parameters and `TYPE` words of its
    /// original line that it lacks: `PREF` (a `PREF=1` parameter in 4.0), other `TYPE` words,
    /// and parameters other than `VALUE`, `ENCODING` and `CHARSET`, which export sets itself.
    mutating func carryParameters(from originals: [String: [VCardProperty]]) {
        guard !originals.isEmpty else { return }
        var carried: Set<String> = []
        for index in properties.indices {
            guard let name = valueNames[index], !carried.contains(name),
                let original = originals[name]?.first(where: { $0.name == properties[index].name })
            else { continue }
            carried.insert(name)
            properties[index] = Self.adding(original, to: properties[index], version: version)
        }
    }

    private static func adding(_ original: VCardProperty, to made: VCardProperty, version: VCardVersion) -> VCardProperty {
        var result = made
        let defaults: Set<String> = made.name == "TEL" ? ["VOICE"] : made.name == "EMAIL" ? ["INTERNET"] : []
        var originalTypes = original.types
        if original.hasParameter(named: "PREF") { originalTypes.insert("PREF") }
        var missing = originalTypes.subtracting(made.types).subtracting(defaults)
        if version == .v4, missing.remove("PREF") != nil, !made.hasParameter(named: "PREF") {
            result.parameters.append(VCardParameter(uppercasedName: "PREF", values: ["1"]))
        }
        if !missing.isEmpty {
            let words = missing.sorted()
            if let typeIndex = result.parameters.firstIndex(where: { $0.name == "TYPE" }) {
                result.parameters[typeIndex].values += words
            } else {
                result.parameters.append(VCardParameter(uppercasedName: "TYPE", values: words))
            }
        }
        let setByExport: Set<String> = ["TYPE", "VALUE", "ENCODING", "CHARSET", "PREF"]
        for parameter in original.parameters
        where !parameter.values.isEmpty && !setByExport.contains(parameter.name) && !made.hasParameter(named: parameter.name) {
            result.parameters.append(parameter)
        }
        return result
    }

    /// Puts each value's original lines in place of the properties made for it; original
    /// values export made nothing for (such as `KIND:individual`) go after the others.
    mutating func substitute(_ originals: [String: [VCardProperty]]) {
        guard !originals.isEmpty else { return }
        var result: [VCardProperty] = []
        var names: [String?] = []
        var placed: Set<String> = []
        for (property, name) in zip(properties, valueNames) {
            guard let name, let lines = originals[name] else {
                result.append(property)
                names.append(name)
                continue
            }
            if placed.insert(name).inserted {
                result += lines
                names += Array(repeating: name, count: lines.count)
            }
        }
        for (name, lines) in originals.sorted(by: { $0.key < $1.key }) where !placed.contains(name) {
            result += lines
            names += Array(repeating: name, count: lines.count)
        }
        properties = result
        valueNames = names
    }

    /// A fresh `itemN` group.
    private mutating func itemGroup() -> String {
        while reservedGroups.contains("ITEM\(nextItem)") { nextItem += 1 }
        defer { nextItem += 1 }
        return "item\(nextItem)"
    }

    /// Appends a labelled value: `TYPE` words when the label has some for this kind of value,
    /// else an item group with an `X-ABLabel`. Returns the item group, if one was used.
    @discardableResult
    mutating func appendLabelled(
        _ property: VCardProperty, label: Label?, kind: VCardValueKind?, baseTypes: [String] = [],
        needsGroup: Bool = false
    ) -> String? {
        var property = property
        var types = baseTypes
        var appleLabel: String?
        if let label {
            if let kind, let labelTypes = VCardLabels.types(for: label, kind: kind) {
                types += labelTypes
            } else {
                appleLabel = VCardLabels.appleLabel(for: label)
            }
        }
        if !types.isEmpty { property.parameters.append(VCardParameter(name: "TYPE", values: types)) }
        // A value whose original lines will replace it takes no item number from the others.
        let replaced = currentValue.map { replacedValues.contains($0) } ?? false
        let group = appleLabel != nil || needsGroup ? (replaced ? "item" : itemGroup()) : nil
        property.group = group
        append(property)
        if let appleLabel, let group {
            append(VCardProperty(group: group, name: "X-ABLabel", text: appleLabel))
        }
        return group
    }

    mutating func appendNames(_ person: Person) {
        let parts = [person.lastName, person.firstName, person.middleName, person.prefix, person.suffix]
        value("N") { $0.append(VCardProperty(name: "N", structured: parts.map { [$0 ?? ""] })) }
        let formatted = person.formattedName ?? CompositeName.make(person.state.nameParts, format: .firstNameFirst) ?? ""
        value("FN") { $0.append(VCardProperty(name: "FN", text: formatted)) }
        if version == .v4, person.kind == .organization {
            value("KIND") { $0.append(VCardProperty(name: "KIND", rawValue: "org")) }
        }
        appendTexts(of: person, in: .name)
    }

    /// The text properties of `section` that have a card property of their own, each as the
    /// value of that name.
    mutating func appendTexts(of person: Person, in section: TextProperty.Section) {
        for entry in TextProperty.vCardTexts(in: section) {
            guard let name = entry.vCardName, let text = person.text(entry.id) else { continue }
            value(name) { $0.append(VCardProperty(name: name, text: text)) }
        }
    }

    mutating func appendOrganization(_ person: Person) {
        if person.organization != nil || person.department != nil {
            var units = [[person.organization ?? ""]]
            if let department = person.department { units.append([department]) }
            value("ORG") { $0.append(VCardProperty(name: "ORG", structured: units)) }
        }
        appendTexts(of: person, in: .work)
        if version == .v3, person.kind == .organization {
            value("X-ABSHOWAS") { $0.append(VCardProperty(name: "X-ABSHOWAS", rawValue: "COMPANY")) }
        }
    }

    mutating func appendCommunication(_ person: Person) {
        for entry in person.phones {
            value(VCardOrigin.name(of: .phones, entry.identifier)) {
                $0.appendLabelled(VCardProperty(name: "TEL", rawValue: entry.value), label: entry.label, kind: .phone)
            }
        }
        for entry in person.emails {
            value(VCardOrigin.name(of: .emails, entry.identifier)) {
                $0.appendLabelled(
                    VCardProperty(name: "EMAIL", rawValue: entry.value), label: entry.label, kind: .email,
                    baseTypes: $0.version == .v3 ? ["INTERNET"] : [])
            }
        }
        for entry in person.addresses {
            currentValue = VCardOrigin.name(of: .addresses, entry.identifier)
            defer { currentValue = nil }
            let address = entry.value
            let parts = [address.poBox ?? "", address.extendedAddress ?? "", address.street ?? "", address.city ?? "", address.state ?? "", address.zip ?? "",
                         address.country ?? ""]
            let countryCode = address.countryCode.flatMap { $0.isEmpty ? nil : $0 }
            let group = appendLabelled(
                VCardProperty(name: "ADR", structured: parts.map { [$0] }), label: entry.label, kind: .address,
                needsGroup: countryCode != nil)
            if let countryCode, let group { append(VCardProperty(group: group, name: "X-ABADR", text: countryCode)) }
        }
        for entry in person.urls {
            value(VCardOrigin.name(of: .urls, entry.identifier)) {
                $0.appendLabelled(VCardProperty(name: "URL", rawValue: entry.value), label: entry.label, kind: .url)
            }
        }
    }

    /// Dates as `X-ABDATE`; in vCard 4 the first anniversary as `ANNIVERSARY`.
    mutating func appendDates(_ dates: MultiValue<ContactDate>) {
        var wroteAnniversary = false
        for entry in dates {
            currentValue = VCardOrigin.name(of: .dates, entry.identifier)
            defer { currentValue = nil }
            if version == .v4, !wroteAnniversary, entry.label == .anniversary {
                wroteAnniversary = true
                append(VCardValues.dateProperty(name: "ANNIVERSARY", date: entry.value, version: version))
                continue
            }
            appendLabelled(
                VCardValues.dateProperty(name: "X-ABDATE", date: entry.value, version: version), label: entry.label,
                kind: nil)
        }
    }

    mutating func appendInstantMessages(_ accounts: MultiValue<InstantMessage>) {
        for entry in accounts {
            currentValue = VCardOrigin.name(of: .instantMessages, entry.identifier)
            defer { currentValue = nil }
            var parameters: [VCardParameter] = []
            if let service = entry.value.service, !service.isEmpty {
                parameters.append(VCardParameter(name: "X-SERVICE-TYPE", values: [service]))
            }
            appendLabelled(
                VCardProperty(name: "IMPP", parameters: parameters, rawValue: VCardValues.imppValue(entry.value)),
                label: entry.label, kind: .instantMessage)
        }
    }

    mutating func appendSocialProfiles(_ profiles: MultiValue<SocialProfile>) {
        for entry in profiles {
            currentValue = VCardOrigin.name(of: .socialProfiles, entry.identifier)
            defer { currentValue = nil }
            let profile = entry.value
            var parameters: [VCardParameter] = []
            let named: [(String, String?)] = [
                ("TYPE", profile.service), ("X-USER", profile.username), ("X-USERID", profile.identifier),
            ]
            for (name, value) in named {
                if let value, !value.isEmpty { parameters.append(VCardParameter(name: name, values: [value])) }
            }
            appendLabelled(
                VCardProperty(name: "X-SOCIALPROFILE", parameters: parameters, rawValue: profile.url ?? ""),
                label: entry.label, kind: nil)
        }
    }

    mutating func appendPhoto(_ data: Data) {
        let types = VCardValues.imageTypes(of: data)
        let base64 = data.base64EncodedString()
        switch version {
        case .v3:
            var parameters = [VCardParameter(name: "ENCODING", values: ["b"])]
            if let type = types.vCard3Type { parameters.append(VCardParameter(name: "TYPE", values: [type])) }
            append(VCardProperty(name: "PHOTO", parameters: parameters, rawValue: base64))
        case .v4:
            append(VCardProperty(name: "PHOTO", rawValue: "data:\(types.mediaType);base64,\(base64)"))
        }
    }

    /// Appends the kept lines, except repeats of single-valued properties already written
    /// (a further `FN` with parameters is written in 4.0, which allows several) and exact repeats of written
    /// lines.
    mutating func appendKept(_ kept: [VCardProperty]) {
        let writtenNames = Set(properties.map(\.name))
        var writtenLines = Set(properties.map(VCardWriter.contentLine))
        for property in kept {
            // vCard 4.0 allows several FN, such as one per language (with LANGUAGE or ALTID
            // parameters); 3.0 only one.
            let repeatable = version == .v4 && property.name == "FN" && !property.parameters.isEmpty
            if !repeatable, VCardExporter.singleValued.contains(property.name), writtenNames.contains(property.name) {
                continue
            }
            guard writtenLines.insert(VCardWriter.contentLine(property)).inserted else { continue }
            append(property)
        }
    }
}
