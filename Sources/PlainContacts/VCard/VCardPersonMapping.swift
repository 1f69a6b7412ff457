import FoundationEssentials

/// One mapping of a person card (see ``VCardImporter``): walks the properties once, collecting
/// values, then builds the person and decides which lines are kept verbatim.
struct VCardPersonMapping {
    /// What became of one property.
    private enum Outcome {
        /// Mapped to a labelled value, using the item group's `X-ABLabel` if there is one.
        case labelled
        /// Mapped to a value that has no label.
        case mapped
        /// Kept verbatim, or dropped.
        case other
    }

    private let card: VCard
    private let source: String
    /// `X-ABLabel` text by upper-case item group.
    private let labels: [String: String]
    /// `X-ABADR` country code by upper-case item group.
    private let countryCodes: [String: String]

    private var structuredName: [String]?
    private var formattedName: (text: String, index: Int)?
    private var isOrganization = false
    private var organization: String?
    private var department: String?
    /// The text of the lines of each text property with a card property of its own
    /// (``TextProperty/VCardPlace/text(_:_:)``), in card order: the first line's alone for one
    /// that keeps the first, the items of every line for a list.
    private var texts: [PropertyID: [String]] = [:]
    private var birthday: ContactDate?
    private var uid: String?
    private var groupNames: [String] = []
    private var image: Data?

    private var phones = MultiValue<String>()
    private var emails = MultiValue<String>()
    private var urls = MultiValue<String>()
    private var addresses = MultiValue<PostalAddress>()
    private var dates = MultiValue<ContactDate>()
    private var relatedNames = MultiValue<String>()
    private var instantMessages = MultiValue<InstantMessage>()
    private var socialProfiles = MultiValue<SocialProfile>()

    /// Single-valued properties already mapped, by name.
    private var seen: Set<String> = []
    /// Indices of the properties kept verbatim.
    private var kept: [Int] = []
    /// Indices of `X-ABLABEL` and `X-ABADR` properties, decided once every property is seen.
    private var deferred: [Int] = []
    /// Item groups with a property mapped to a labelled value.
    private var labelledGroups: Set<String> = []
    /// Item groups with a property that did not take the group's label.
    private var otherGroups: Set<String> = []
    /// Item groups whose `ADR` was mapped.
    private var addressGroups: Set<String> = []
    /// A mapped value, before the person gives it its name (see ``VCardOrigin``).
    private enum Value: Hashable {
        /// A single value by its card property's name: `N`, `NOTE`.
        case single(String)
        /// A multi-value entry by its position among the entries of the property.
        case entry(PropertyID, Int)
    }

    /// The property each mapped value came from, in card order; a value mapped from several
    /// lines (`NOTE`, `NICKNAME`) or labelled by another (`X-ABLabel`) appears once per line.
    private var valueLines: [(value: Value, index: Int)] = []
    /// Whether some value appears more than once in ``valueLines``.
    private var valuesRepeat = false
    /// The values mapped from each upper-case item group, in card order.
    private var valuesByGroup: [String: [Value]] = [:]
    /// The name parts as mapped, trimmed; set by ``finish()``.
    private var nameParts: [String] = []
    /// Whether the card's `FN` became the person's formatted name; set by ``finish()``.
    private var keepsFormattedName = false

    /// Whether every value is compared with the export, with no plain values told apart first:
    /// the slow way, which the test of the fast one compares with.
    private let checksEveryValue: Bool

    /// Whether a problem in a value throws (else the line is kept verbatim, with a warning).
    private let strict: Bool
    /// What was recovered from, when not strict.
    private var warnings: [InterchangeError] = []

    init(card: VCard, source: String, strict: Bool = true, checkingEveryValue: Bool = false) {
        self.card = card
        self.source = source
        self.strict = strict
        self.checksEveryValue = checkingEveryValue
        var labels: [String: String] = [:]
        var countryCodes: [String: String] = [:]
        for property in card.properties {
            guard let group = property.group else { continue }
            let key = VCardText.asciiUppercased(group)
            if property.name == "X-ABLABEL", labels[key] == nil { labels[key] = property.text }
            if property.name == "X-ABADR", countryCodes[key] == nil { countryCodes[key] = property.text }
        }
        self.labels = labels
        self.countryCodes = countryCodes
    }

    /// Maps the card.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedVCard`` for a `PHOTO` with invalid base64.
    mutating func run() throws -> ImportedPerson {
        for (index, property) in card.properties.enumerated() {
            let outcome = try handle(property, at: index)
            guard let group = property.group, property.name != "X-ABLABEL", property.name != "X-ABADR" else {
                continue
            }
            let key = VCardText.asciiUppercased(group)
            if outcome == .labelled { labelledGroups.insert(key) } else { otherGroups.insert(key) }
        }
        return finish()
    }

    // MARK: Properties

    private mutating func handle(_ property: VCardProperty, at index: Int) throws -> Outcome {
        switch property.name {
        case "PRODID", "REV", "VERSION":
            return .other
        case "X-ABLABEL", "X-ABADR":
            deferred.append(index)
            return .other
        case "N":
            return single(property, at: index) { $0.structuredName = property.components }
        case "FN":
            let text = VCardImporter.trimmed(property.text)
            return single(property, at: index) { $0.formattedName = text.isEmpty ? nil : (text, index) }
        case "ORG":
            return single(property, at: index) { $0.mapOrganization(property) }
        case "UID":
            return single(property, at: index) { $0.uid = nonEmpty(VCardImporter.trimmed(property.text)) }
        case "CATEGORIES":
            for name in property.listValues.map(VCardImporter.trimmed) where !name.isEmpty {
                if !groupNames.contains(name) { groupNames.append(name) }
            }
            return .mapped
        case "BDAY":
            guard birthday == nil, let date = VCardValues.date(property) else { return keep(index) }
            birthday = date
            valueLines.append((.single("BDAY"), index))
            return .mapped
        case "KIND", "X-ABSHOWAS":
            return mapKind(property, at: index)
        case "PHOTO":
            let data: Data?
            do {
                data = image == nil ? try VCardValues.photo(property, source: source) : nil
            } catch let error as InterchangeError where !strict {
                warnings.append(
                    InterchangeError(
                        .malformedVCard, "The PHOTO is not readable base64; it was kept as written, without an image.",
                        path: error.path, line: error.line))
                return keep(index)
            }
            guard let data else { return keep(index) }
            image = data
            return .mapped
        default:
            if let text = TextProperty.withVCardName(property.name) { return mapText(property, at: index, as: text) }
            return mapLabelled(property, at: index)
        }
    }

    /// Maps a line of a text property with a card property of its own, as its
    /// ``TextProperty/Repeats`` says.
    private mutating func mapText(_ property: VCardProperty, at index: Int, as text: TextProperty) -> Outcome {
        let id = text.id
        guard case .text(let name, let repeats) = text.vCard else { return keep(index) }
        switch repeats {
        case .once, .firstOfSeveral:
            return single(property, at: index) { $0.texts[id] = nonEmpty(property.text).map { [$0] } }
        case .joined:
            if let line = nonEmpty(property.text) { texts[id, default: []].append(line) }
        case .list:
            texts[id, default: []] += property.listValues.map(VCardImporter.trimmed).filter { !$0.isEmpty }
        }
        valuesRepeat = valuesRepeat || valueLines.contains { $0.value == .single(name) }
        valueLines.append((.single(name), index))
        return .mapped
    }

    /// The value of a text property with a card property of its own, as the card's lines give
    /// it; `nil` when they give none.
    private func textValue(_ text: TextProperty) -> String? {
        guard case .text(_, let repeats) = text.vCard, let lines = texts[text.id], !lines.isEmpty else { return nil }
        switch repeats {
        case .once, .firstOfSeveral: return lines[0]
        case .joined(let separator), .list(let separator): return lines.joined(separator: separator)
        }
    }

    /// Maps the first property of a name with `body`; keeps later ones verbatim.
    private mutating func single(_ property: VCardProperty, at index: Int, _ body: (inout Self) -> Void) -> Outcome {
        guard seen.insert(property.name).inserted else { return keep(index) }
        body(&self)
        valueLines.append((.single(property.name), index))
        return .mapped
    }

    private mutating func keep(_ index: Int) -> Outcome {
        kept.append(index)
        return .other
    }

    private mutating func mapOrganization(_ property: VCardProperty) {
        let units = property.components
        organization = units.first.flatMap(nonEmpty)
        let rest = units.dropFirst().filter { !$0.isEmpty }
        department = rest.isEmpty ? nil : rest.joined(separator: ", ")
    }

    private mutating func mapKind(_ property: VCardProperty, at index: Int) -> Outcome {
        let value = VCardImporter.trimmed(property.text).lowercased()
        switch (property.name, value) {
        case ("KIND", "individual"):
            valueLines.append((.single(property.name), index))
            return .mapped
        case ("KIND", "org"), ("KIND", "organization"), ("X-ABSHOWAS", "company"):
            isOrganization = true
            valueLines.append((.single(property.name), index))
            return .mapped
        default:
            return keep(index)
        }
    }

    // MARK: Labelled values

    /// The label of a value: the item group's `X-ABLabel`, else the `TYPE` words.
    private func label(_ property: VCardProperty, kind: VCardValueKind?) -> Label? {
        if let abLabel = groupLabel(property) { return abLabel }
        guard let kind else { return nil }
        return VCardLabels.label(types: property.types, kind: kind)
    }

    private func groupLabel(_ property: VCardProperty) -> Label? {
        guard let group = property.group, let text = labels[VCardText.asciiUppercased(group)] else { return nil }
        return VCardLabels.label(appleLabel: text)
    }

    private mutating func mapLabelled(_ property: VCardProperty, at index: Int) -> Outcome {
        let mapped: (PropertyID, MultiValueIdentifier)?
        switch property.name {
        case "TEL":
            let number = stripping("tel:", from: VCardImporter.trimmed(property.text))
            guard let number = nonEmpty(number) else { return .other }
            mapped = (.phones, phones.add(number, label: label(property, kind: .phone)))
        case "EMAIL":
            guard let address = nonEmpty(stripping("mailto:", from: VCardImporter.trimmed(property.text))) else {
                return .other
            }
            mapped = (.emails, emails.add(address, label: label(property, kind: .email)))
        case "URL":
            guard let url = nonEmpty(VCardImporter.trimmed(property.text)) else { return .other }
            mapped = (.urls, urls.add(url, label: label(property, kind: .url)))
        case "ADR":
            let code = property.group.flatMap { countryCodes[VCardText.asciiUppercased($0)] }
            guard let address = VCardValues.address(property, countryCode: code) else { return .other }
            mapped = (.addresses, addresses.add(address, label: label(property, kind: .address)))
            if let group = property.group { addressGroups.insert(VCardText.asciiUppercased(group)) }
        case "ANNIVERSARY":
            guard let date = VCardValues.date(property) else { return keep(index) }
            mapped = (.dates, dates.add(date, label: groupLabel(property) ?? .anniversary))
        case "X-ABDATE":
            guard let date = VCardValues.date(property) else { return keep(index) }
            mapped = (.dates, dates.add(date, label: label(property, kind: nil)))
        case "X-ABRELATEDNAMES":
            guard let name = nonEmpty(property.text) else { return .other }
            mapped = (.relatedNames, relatedNames.add(name, label: label(property, kind: .relatedName)))
        case "RELATED":
            let valueType = property.parameter(named: "VALUE").first?.lowercased()
            let text = property.text
            guard valueType == "text" || (valueType == nil && !text.contains(":")) else { return keep(index) }
            guard let name = nonEmpty(text) else { return .other }
            mapped = (.relatedNames, relatedNames.add(name, label: label(property, kind: .relatedName)))
        case "IMPP":
            guard let account = VCardValues.instantMessage(impp: property) else { return .other }
            mapped = addInstantMessage(account, label: label(property, kind: .instantMessage)).map { (.instantMessages, $0) }
        case "X-SOCIALPROFILE":
            guard let profile = VCardValues.socialProfile(property) else { return .other }
            mapped = (.socialProfiles, socialProfiles.add(profile, label: label(property, kind: nil)))
        default:
            guard let service = VCardValues.legacyInstantMessageServices[property.name] else { return keep(index) }
            guard let username = nonEmpty(VCardImporter.trimmed(property.text)) else { return .other }
            mapped = addInstantMessage(
                InstantMessage(service: service, username: username), label: label(property, kind: .instantMessage)
            ).map { (.instantMessages, $0) }
        }
        if let (multiValue, identifier) = mapped, identifier != .invalid {
            let value = Value.entry(multiValue, Int(identifier.rawValue))
            valueLines.append((value, index))
            if let group = property.group { valuesByGroup[VCardText.asciiUppercased(group), default: []].append(value) }
        }
        return .labelled
    }

    /// Adds an account unless the card already gave the same one; the new identifier, or `nil`
    /// for a repeat.
    private mutating func addInstantMessage(_ account: InstantMessage, label: Label?) -> MultiValueIdentifier? {
        let duplicate = instantMessages.values.contains { existing in
            existing.username == account.username
                && existing.service?.lowercased() == account.service?.lowercased()
        }
        return duplicate ? nil : instantMessages.add(account, label: label)
    }

    // MARK: Result

    private mutating func finish() -> ImportedPerson {
        let person = Person()
        var name = structuredName ?? []
        while name.count < 5 { name.append("") }
        name = name.map(VCardImporter.trimmed)
        person.lastName = nonEmpty(name[0])
        person.firstName = nonEmpty(name[1])
        person.middleName = nonEmpty(name[2])
        person.prefix = nonEmpty(name[3])
        person.suffix = nonEmpty(name[4])
        let nameIsEmpty = name.prefix(5).allSatisfy(\.isEmpty)
        let nickname = TextProperty.named(.nickname).flatMap(textValue)
        if nameIsEmpty, let formatted = formattedName?.text {
            if isOrganization {
                if organization == nil { organization = formatted }
            } else if formatted != organization, formatted != nickname {
                // An FN that only repeats the organization or the nickname, as export writes
                // for a person without a name, is no first name.
                person.firstName = formatted
                name[1] = formatted
            }
        }
        nameParts = Array(name.prefix(5))
        person.organization = organization
        person.department = department
        for text in TextProperty.all {
            if let value = textValue(text) { person.setText(value, text.id) }
        }
        person.birthday = birthday
        if isOrganization { person.kind = .organization }
        person.phones = phones
        person.emails = emails
        person.urls = urls
        person.addresses = addresses
        person.dates = dates
        person.relatedNames = relatedNames
        person.instantMessages = instantMessages
        person.socialProfiles = socialProfiles
        if let image { person.setImageData(image) }

        if let formattedName, formattedName.text != CompositeName.make(person.state.nameParts, format: .firstNameFirst) {
            person.formattedName = formattedName.text
            keepsFormattedName = true
        }
        keepUnusedLabels()
        var state = person.state
        VCardRecordFields.setLines(kept.sorted().map { VCardWriter.contentLine(card.properties[$0]) }, in: &state)
        VCardRecordFields.setUID(uid, in: &state)
        origin(of: person, checkingEveryValue: checksEveryValue)?.store(in: &state)
        person.state = state
        return ImportedPerson(person: person, uid: uid, groupNames: groupNames, line: card.startLine, warnings: warnings)
    }

    /// Keeps an `X-ABLabel` unless every other property of its item group took the label, and
    /// an `X-ABADR` unless its group's address was mapped.
    private mutating func keepUnusedLabels() {
        for index in deferred {
            let property = card.properties[index]
            guard let group = property.group.map(VCardText.asciiUppercased) else {
                kept.append(index)
                continue
            }
            let consumed =
                property.name == "X-ABADR"
                ? addressGroups.contains(group)
                : labelledGroups.contains(group) && !otherGroups.contains(group)
            guard consumed else {
                kept.append(index)
                continue
            }
            // A consumed line belongs to the value it labels (the group's address for X-ABADR).
            let owner = valuesByGroup[group]?.first { value in
                guard property.name == "X-ABADR" else { return true }
                if case .entry(.addresses, _) = value { return true }
                return false
            }
            if let owner {
                valueLines.append((owner, index))
                valuesRepeat = true
            }
        }
    }

    /// The card's lines for each value whose lines differ from what export would write for it,
    /// or `nil` when export would write them all alike (or the card's version is not one
    /// export writes).
    ///
    /// Most values are plain (see ``isPlain(_:named:of:version:)``) and need no export to tell;
    /// only when one is not is the person's export made and compared with, once.
    private func origin(of person: Person, checkingEveryValue: Bool) -> VCardOrigin? {
        // A 2.1 card is compared with what a 3.0 export writes; its lines then carry their
        // parameters into exports of other versions.
        let version = VCardVersion(rawValue: card.version) ?? .v3
        // Most values have one line; a value with more gathers them (only then is a
        // dictionary built).
        let counts = valuesRepeat ? Dictionary(valueLines.map { ($0.value, 1) }, uniquingKeysWith: +) : nil
        var named: [(name: String, properties: [VCardProperty])] = []
        var gathered = Set<Value>()
        for (value, index) in valueLines {
            if case .single(let name) = value, !VCardOrigin.tracks(name) { continue }
            let lineCount = counts?[value] ?? 1
            if !checkingEveryValue, lineCount == 1, isPlain(card.properties[index], value, version: version) { continue }
            guard gathered.insert(value).inserted, let name = name(of: value, in: person.state) else { continue }
            let indices = lineCount == 1 ? [index] : valueLines.filter { $0.value == value }.map(\.index).sorted()
            named.append((name, indices.map { card.properties[$0] }))
        }
        guard !named.isEmpty else { return nil }
        let generated = VCardExporter.generatedValues(of: person, version: version)
        var sources: [String: VCardOrigin.Source] = [:]
        for (name, properties) in named {
            if VCardOrigin.generatedSaysAll(of: properties, generated[name] ?? []) { continue }
            let lines = properties.map(VCardWriter.contentLine)
            guard let fingerprint = VCardOrigin.fingerprint(of: name, in: person.state) else { continue }
            sources[name] = VCardOrigin.Source(lines: lines, fingerprint: fingerprint)
        }
        return sources.isEmpty ? nil : VCardOrigin(version: card.version, sources: sources)
    }

    /// Whether a value's only card line is one export writes back saying as much, known from
    /// what the mapping holds without making the export: no item group, no parameter but
    /// `TYPE`, the value as mapped, and (for a phone, email, URL or address) `TYPE` words that
    /// export writes for the value's label. A value this cannot tell is compared with the
    /// export instead; a value it calls plain must be one that
    /// ``VCardOrigin/generatedSaysAll(of:_:)`` accepts (a test checks it over the fixtures).
    private func isPlain(_ property: VCardProperty, _ value: Value, version: VCardVersion) -> Bool {
        guard property.group == nil, property.parameters.allSatisfy({ $0.name == "TYPE" }) else { return false }
        let untyped = property.parameters.isEmpty
        switch value {
        case .single("N"): return untyped && property.components == nameParts
        case .single("FN"): return untyped && !keepsFormattedName && formattedName?.text == property.text
        case .single("ORG"):
            return untyped && organization != nil && property.components == [organization ?? ""] + (department.map { [$0] } ?? [])
        case .single("BDAY"):
            guard untyped, let birthday, birthday.year != nil else { return false }
            return property.rawValue == birthday.description
        case .single(let name):
            guard let text = TextProperty.withVCardName(name) else { return false }
            return untyped && texts[text.id] == [property.text]
        case .entry(.phones, let position):
            return isPlain(property, phones, position, kind: .phone, defaults: ["VOICE"], base: [])
        case .entry(.emails, let position):
            let base: Set<String> = version == .v3 ? ["INTERNET"] : []
            return isPlain(property, emails, position, kind: .email, defaults: ["INTERNET"], base: base)
        case .entry(.urls, let position):
            return isPlain(property, urls, position, kind: .url, defaults: [], base: [])
        case .entry(.addresses, let position):
            guard addresses.entries.indices.contains(position) else { return false }
            let address = addresses.entries[position].value
            let parts = [
                address.poBox, address.extendedAddress, address.street, address.city, address.state, address.zip,
                address.country,
            ]
            guard address.countryCode == nil, property.components == parts.map({ $0 ?? "" }) else { return false }
            return hasWrittenTypes(property, label: addresses.entries[position].label, kind: .address, defaults: [], base: [])
        default:
            return false
        }
    }

    /// Whether a phone, email or URL line says no more than export writes for its entry.
    private func isPlain(
        _ property: VCardProperty, _ values: MultiValue<String>, _ position: Int, kind: VCardValueKind,
        defaults: Set<String>, base: Set<String>
    ) -> Bool {
        guard values.entries.indices.contains(position), property.rawValue == values.entries[position].value else {
            return false
        }
        return hasWrittenTypes(property, label: values.entries[position].label, kind: kind, defaults: defaults, base: base)
    }

    /// Whether every `TYPE` word of a line but the defaults is one export writes for the label.
    private func hasWrittenTypes(
        _ property: VCardProperty, label: Label?, kind: VCardValueKind, defaults: Set<String>, base: Set<String>
    ) -> Bool {
        if property.parameters.isEmpty { return true }
        var written = base
        if let label {
            guard let types = VCardLabels.types(for: label, kind: kind) else { return false }
            written.formUnion(types)
        }
        return property.types.subtracting(defaults).isSubset(of: written)
    }

    /// The name of a value as the person holds it: a multi-value entry under the identifier the
    /// person gave it (the mapping's own multi-values number entries from 0, so an identifier
    /// there is also a position).
    private func name(of value: Value, in state: PersonState) -> String? {
        switch value {
        case .single(let name):
            return name
        case .entry(let property, let position):
            let identifiers = VCardOrigin.identifiers(of: property, in: state)
            guard identifiers.indices.contains(position) else { return nil }
            return VCardOrigin.name(of: property, identifiers[position])
        }
    }
}
/// The text, or `nil` when it is empty.
private func nonEmpty(_ text: String) -> String? {
    text.isEmpty ? nil : text
}

/// The text without a leading URI scheme prefix such as `tel:` (any case).
private func stripping(_ prefix: String, from text: String) -> String {
    guard text.utf8.count >= prefix.utf8.count, text.prefix(prefix.count).lowercased() == prefix else { return text }
    return String(text.dropFirst(prefix.count))
}
