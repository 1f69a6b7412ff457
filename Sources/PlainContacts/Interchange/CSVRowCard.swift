/// One CSV row on its way to a card: the cells gathered by what they hold, then written.
struct CSVRowCard {
    private let layout: CSVLayout
    private let line: Int

    /// The text properties' cells: several columns of one property joined with its
    /// ``TextProperty/csvSeparator``, else the last one.
    private var texts: [PropertyID: String] = [:]
    private var birthday: ContactDate?
    private var birthParts: [CSVField: Int] = [:]
    private var anniversaries: [ContactDate] = []
    private var groups: [String] = []
    private var labelled: [(name: String, kind: VCardValueKind?, label: Label?, value: String, preferred: Bool)] = []
    private var accounts: [(service: String?, user: String)] = []
    private var addresses: [Label?: [CSVField.AddressPart: [String]]] = [:]
    private var addressOrder: [Label?] = []
    private var numbered: [NumberedKey: [CSVField.NumberedPart: String]] = [:]
    private var numberedOrder: [NumberedKey] = []
    private var kept: [(field: String, value: String)] = []
    private var sections: [Int: [CSVField.SectionPart: String]] = [:]
    private var sectionOrder: [Int] = []

    /// One of Google's numbered groups of columns, such as "Phone 2".
    private struct NumberedKey: Hashable {
        var kind: CSVField.NumberedKind
        var index: Int
    }

    /// The separator of several values in one of Google's cells.
    private static let googleSeparator = " ::: "

    /// The groups Google puts every contact in, which are not groups of the user's.
    private static let allContactsGroups: Set<String> = [
        "mycontacts", "my contacts", "system group: my contacts", "all contacts", "imported",
    ]

    init(layout: CSVLayout, line: Int) {
        self.layout = layout
        self.line = line
    }

    /// Gathers the cells of a row.
    mutating func read(_ cells: [String], log: inout ConversionLog) throws {
        for (column, raw) in cells.enumerated() {
            let value = CardBuilder.trimmed(raw)
            guard !value.isEmpty else { continue }
            guard column < layout.fields.count else {
                kept.append(("column \(column + 1)", value))
                continue
            }
            let header = layout.headers[column]
            guard let field = layout.fields[column] else {
                if !CSVHeaderNames.isDefault(value, header: header) {
                    kept.append((header.isEmpty ? "column \(column + 1)" : header, value))
                }
                continue
            }
            try read(value, as: field, header: header, log: &log)
        }
    }

    private mutating func read(_ value: String, as field: CSVField, header: String, log: inout ConversionLog) throws {
        switch field {
        case .text(let property):
            let separator = TextProperty.named(property)?.csvSeparator
            texts[property] = separator.map { join(texts[property], value, separator: $0) } ?? value
        case .title:
            texts[.prefix] = value
        case .birthday:
            try readDate(value, header: header, log: &log) { $0.birthday = $1 }
        case .anniversary:
            try readDate(value, header: header, log: &log) { $0.anniversaries.append($1) }
        case .birthYear, .birthMonth, .birthDay:
            guard let number = field == .birthMonth ? ImportedDate.month(value) : Int(value) else {
                try log.recover("the \(header) column holds no number; it was kept with the person", line: line)
                kept.append((header, value))
                return
            }
            if number != 0 { birthParts[field] = number }
        case .groups:
            groups += groupNames(value)
        case .email(let label):
            for (text, preferred) in values(value) {
                labelled.append(("EMAIL", .email, label, text, preferred))
            }
        case .phone(let label):
            for (text, preferred) in values(value) {
                labelled.append(("TEL", .phone, label, text, preferred))
            }
        case .url(let label):
            for (text, _) in values(value) { labelled.append(("URL", .url, label, text, false)) }
        case .related(let label):
            for (text, _) in values(value) { labelled.append(("X-ABRELATEDNAMES", nil, label, text, false)) }
        case .instantMessage(let service):
            for (text, _) in values(value) { accounts.append((service, text)) }
        case .address(let label, let part):
            if addresses[label] == nil { addressOrder.append(label) }
            addresses[label, default: [:]][part, default: []].append(value)
        case .section(let index, let part):
            if sections[index] == nil { sectionOrder.append(index) }
            if part == .other {
                kept.append((header, value))
            } else {
                sections[index, default: [:]][part] = value
            }
        case .numbered(let kind, let index, let part):
            let key = NumberedKey(kind: kind, index: index)
            if numbered[key] == nil { numberedOrder.append(key) }
            if part == .other {
                kept.append((header, value))
            } else {
                numbered[key, default: [:]][part] = value
            }
        }
    }

    private mutating func readDate(
        _ value: String, header: String, log: inout ConversionLog, store: (inout CSVRowCard, ContactDate) -> Void
    ) throws {
        guard !ImportedDate.isEmpty(value) else { return }
        guard let date = ImportedDate.parse(value, dayFirst: layout.dayFirst) else {
            try log.recover("the \(header) column holds no date this importer reads; it was kept with the person", line: line)
            kept.append((header, value))
            return
        }
        store(&self, date)
    }

    /// The values of a cell: several in Google's cells, each once.
    private func values(_ cell: String) -> [(String, Bool)] {
        guard layout.isGoogle else { return [(cell, false)] }
        return cell.split(separator: Self.googleSeparator).map { (CardBuilder.trimmed(String($0)), false) }
    }

    /// The groups a cell names: Google separates them with ` ::: ` and marks its own with `* `;
    /// Outlook separates them with `;` or `,`.
    private func groupNames(_ cell: String) -> [String] {
        let names: [Substring] = cell.contains(Self.googleSeparator)
            ? cell.split(separator: Self.googleSeparator)
            : cell.split(whereSeparator: { $0 == ";" || (!layout.isGoogle && $0 == ",") })
        return names.compactMap { name in
            var name = CardBuilder.trimmed(String(name))
            var isSystem = false
            if name.hasPrefix("* ") {
                name = CardBuilder.trimmed(String(name.dropFirst(2)))
                isSystem = true
            }
            guard !name.isEmpty, !Self.allContactsGroups.contains(name.lowercased()) else { return nil }
            if isSystem, let first = name.first, first.isLowercase { return first.uppercased() + name.dropFirst() }
            return name
        }
    }

    private func join(_ existing: String?, _ value: String, separator: String) -> String {
        guard let existing, !existing.isEmpty else { return value }
        return existing + separator + value
    }

    // MARK: Writing

    /// Writes the card; a row with nothing in it writes none.
    ///
    /// The text properties go where an export puts them: `N` and `FN`, those of the name
    /// section, `ORG`, those of the work section, and those of the notes section after every
    /// other value (see ``TextProperty/Section``).
    func write(to builder: inout CardBuilder) {
        builder.begin(line: line)
        let organization = texts[.organization] ?? ""
        let displayName = texts[.formattedName] ?? ""
        var first = texts[.firstName] ?? ""
        var last = texts[.lastName] ?? ""
        let hasParts = TextProperty.components(of: "N").contains { texts[$0.id]?.isEmpty == false }
        var shown = displayName
        if !hasParts, !displayName.isEmpty, organization.isEmpty || displayName != organization {
            (first, last, shown) = InterchangeName.parts(of: displayName)
        }
        builder.addName(
            last: last, first: first, middle: texts[.middleName] ?? "", prefix: texts[.prefix] ?? "",
            suffix: texts[.suffix] ?? "", line: line)
        builder.setDisplayName(shown)
        writeTexts(in: .name, to: &builder)
        builder.addStructured("ORG", TextProperty.components(of: "ORG").map { texts[$0.id] ?? "" }, line: line)
        writeTexts(in: .work, to: &builder)
        if let birthday = birthday ?? birthdayFromParts {
            builder.addDate("BDAY", birthday, line: line)
        }
        for date in anniversaries {
            builder.addDate("X-ABDATE", date, label: .anniversary, line: line)
        }
        for entry in labelledWithSectionLabels {
            builder.addLabelled(
                entry.name, kind: entry.kind, label: entry.label, value: entry.value, preferred: entry.preferred,
                line: line)
        }
        for label in addressOrder {
            if let parts = addresses[label] { writeAddress(parts, label: label, to: &builder) }
        }
        for account in accounts { writeAccount(service: account.service, user: account.user, label: nil, to: &builder) }
        var numberedKept: [(String, String)] = []
        var hasOrganization = texts[.organization]?.isEmpty == false || texts[.jobTitle]?.isEmpty == false
        for index in sectionOrder {
            if let parts = sections[index] {
                writeSection(index, parts, to: &builder, hasOrganization: &hasOrganization, kept: &numberedKept)
            }
        }
        for key in numberedOrder {
            if let parts = numbered[key] { writeNumbered(key, parts, to: &builder, kept: &numberedKept) }
        }
        writeTexts(in: .notes, to: &builder)
        builder.addGroups(groups, line: line)
        for (field, value) in kept + numberedKept {
            builder.addKept(format: CSVContactReader.formatName, field: field, value: value, line: line)
        }
        builder.end()
    }

    /// Writes the text properties of `section` that have a card property of their own.
    private func writeTexts(in section: TextProperty.Section, to builder: inout CardBuilder) {
        for entry in TextProperty.vCardTexts(in: section) {
            if let name = entry.vCardName, let value = texts[entry.id] { builder.addText(name, value, line: line) }
        }
    }

    /// The birthday from separate year, month and day columns (Thunderbird's).
    private var birthdayFromParts: ContactDate? {
        guard let month = birthParts[.birthMonth], let day = birthParts[.birthDay] else { return nil }
        return try? ContactDate(year: birthParts[.birthYear], month: month, day: day)
    }

    private func writeAddress(
        _ parts: [CSVField.AddressPart: [String]], label: Label?, preferred: Bool = false, to builder: inout CardBuilder
    ) {
        func part(_ key: CSVField.AddressPart) -> String { parts[key]?.joined(separator: "\n") ?? "" }
        let streets = [part(.street), part(.street2), part(.street3)].filter { !$0.isEmpty }
        var street = streets.joined(separator: "\n")
        let hasParts = !street.isEmpty || [.city, .region, .postalCode, .country, .poBox, .extended].contains {
            !part($0).isEmpty
        }
        // A formatted address only when it is all there is: beside its parts it is derived from them.
        if !hasParts { street = part(.formatted) }
        builder.addLabelled(
            "ADR", kind: .address, label: label, value: "",
            structured: [part(.poBox), part(.extended), street, part(.city), part(.region), part(.postalCode), part(.country)],
            preferred: preferred, line: line)
    }

    /// The values of the columns, an email without a label that a Gmail 2007 section repeats
    /// taking that section's label: Gmail wrote the primary address in `E-mail` and again in
    /// its section, where it has its type.
    private var labelledWithSectionLabels: [(name: String, kind: VCardValueKind?, label: Label?, value: String, preferred: Bool)] {
        var entries = labelled
        for index in sectionOrder {
            guard let parts = sections[index], let label = Self.sectionLabel(parts) else { continue }
            let emails = Set(
                (parts[.email] ?? "").split(separator: Self.googleSeparator).map {
                    CardBuilder.trimmed(String($0)).lowercased()
                })
            for offset in entries.indices
            where entries[offset].name == "EMAIL" && entries[offset].label == nil
                && emails.contains(entries[offset].value.lowercased())
            {
                entries[offset].label = label
            }
        }
        return entries
    }

    /// The label of a section of Gmail's 2007 layout, from its description.
    private static func sectionLabel(_ parts: [CSVField.SectionPart: String]) -> Label? {
        let description = CardBuilder.trimmed(parts[.description] ?? "")
        return switch description.lowercased() {
        case "": nil
        case "personal", "home": .home
        case "work", "business": .work
        case "other": .other
        default: Label(description)
        }
    }

    /// Writes a section of Gmail's 2007 layout, its values labelled by its description; an
    /// email the row already has is not written twice, and the company and title of a section
    /// after the first that has them are kept under their headers.
    private func writeSection(
        _ index: Int, _ parts: [CSVField.SectionPart: String], to builder: inout CardBuilder,
        hasOrganization: inout Bool, kept: inout [(String, String)]
    ) {
        let label = Self.sectionLabel(parts)
        func values(_ part: CSVField.SectionPart) -> [String] {
            (parts[part] ?? "").split(separator: Self.googleSeparator).map { CardBuilder.trimmed(String($0)) }
                .filter { !$0.isEmpty }
        }
        let known = Set(labelled.filter { $0.name == "EMAIL" }.map { $0.value.lowercased() })
        for email in values(.email) where !known.contains(email.lowercased()) {
            builder.addLabelled("EMAIL", kind: .email, label: label, value: email, line: line)
        }
        let fax: Label = label == .work ? .workFax : label == .home ? .homeFax : .otherFax
        for (part, phoneLabel) in [(CSVField.SectionPart.phone, label), (.mobile, .mobile), (.pager, .pager), (.fax, fax)] {
            for phone in values(part) {
                builder.addLabelled("TEL", kind: .phone, label: phoneLabel, value: phone, line: line)
            }
        }
        for account in values(.instantMessage) {
            // Gmail wrote "SERVICE: user" when it knew the service.
            let pieces = account.split(separator: ":", maxSplits: 1).map { CardBuilder.trimmed(String($0)) }
            let (service, user) = pieces.count == 2 && !pieces[0].contains(" ") ? (pieces[0], pieces[1]) : (nil, account)
            writeAccount(service: service, user: user, label: label, to: &builder)
        }
        for address in values(.address) {
            writeAddress([.formatted: [address]], label: label, to: &builder)
        }
        let company = CardBuilder.trimmed(parts[.company] ?? "")
        let title = CardBuilder.trimmed(parts[.title] ?? "")
        guard !company.isEmpty || !title.isEmpty else { return }
        if hasOrganization {
            if !company.isEmpty { kept.append(("Section \(index) - Company", company)) }
            if !title.isEmpty { kept.append(("Section \(index) - Title", title)) }
        } else {
            builder.addStructured("ORG", [company, ""], line: line)
            builder.addText("TITLE", title, line: line)
            hasOrganization = true
        }
    }

    private func writeAccount(service: String?, user: String, label: Label?, to builder: inout CardBuilder) {
        let service = service.flatMap { CardBuilder.trimmed($0).isEmpty ? nil : CardBuilder.trimmed($0) }
        let parameters = service.map { ";X-SERVICE-TYPE=" + CardBuilder.parameterValue($0) } ?? ""
        builder.addLabelled(
            "IMPP" + parameters, kind: .instantMessage, label: label, value: "x-apple:" + user, line: line)
    }

    private func writeNumbered(
        _ key: NumberedKey, _ parts: [CSVField.NumberedPart: String], to builder: inout CardBuilder,
        kept: inout [(String, String)]
    ) {
        // Several values in one cell have their labels in the label cell, in the same order.
        let labels = (parts[.label] ?? "").split(separator: Self.googleSeparator, omittingEmptySubsequences: false)
            .map { Self.label(String($0)) }
        let (label, preferred) = labels.first ?? (nil, false)
        let values = (parts[.value] ?? "").split(separator: Self.googleSeparator).map { CardBuilder.trimmed(String($0)) }
            .filter { !$0.isEmpty }
        func labelled(at offset: Int) -> (Label?, preferred: Bool) {
            offset < labels.count ? labels[offset] : (labels.last?.0, false)
        }
        switch key.kind {
        case .email:
            for (offset, value) in values.enumerated() {
                let (label, preferred) = labelled(at: offset)
                builder.addLabelled("EMAIL", kind: .email, label: label, value: value, preferred: preferred, line: line)
            }
        case .phone:
            for (offset, value) in values.enumerated() {
                let (label, preferred) = labelled(at: offset)
                builder.addLabelled("TEL", kind: .phone, label: label, value: value, preferred: preferred, line: line)
            }
        case .website:
            for value in values { builder.addLabelled("URL", kind: .url, label: label, value: value, line: line) }
        case .relation:
            for value in values { builder.addLabelled("X-ABRELATEDNAMES", kind: nil, label: label, value: value, line: line) }
        case .event:
            for value in values {
                if let date = ImportedDate.parse(value, dayFirst: layout.dayFirst) {
                    builder.addDate("X-ABDATE", date, label: label, line: line)
                } else {
                    kept.append(("Event \(key.index) - \(parts[.label] ?? "Value")", value))
                }
            }
        case .customField:
            let name = CardBuilder.trimmed(parts[.label] ?? "")
            for value in values { kept.append((name.isEmpty ? "Custom Field \(key.index)" : name, value)) }
        case .instantMessage:
            let services = (parts[.service] ?? "").split(separator: Self.googleSeparator, omittingEmptySubsequences: false)
            for (offset, value) in values.enumerated() {
                let service = offset < services.count ? String(services[offset]) : services.last.map(String.init)
                writeAccount(service: service, user: value, label: label, to: &builder)
            }
        case .address:
            var address: [CSVField.AddressPart: [String]] = [:]
            for (part, value) in parts {
                if case .address(let addressPart) = part { address[addressPart] = [value] }
            }
            writeAddress(address, label: label, preferred: preferred, to: &builder)
        case .organization:
            builder.addStructured(
                "ORG", [parts[.organizationName] ?? "", parts[.organizationDepartment] ?? ""], line: line)
            builder.addText("TITLE", parts[.organizationTitle] ?? "", line: line)
        }
    }

    /// The label Google's label text stands for, and whether `* ` marked the value primary.
    static func label(_ text: String) -> (Label?, preferred: Bool) {
        var text = CardBuilder.trimmed(text)
        var preferred = false
        if text.hasPrefix("* ") || text == "*" {
            preferred = true
            text = CardBuilder.trimmed(String(text.dropFirst()))
        }
        guard !text.isEmpty else { return (nil, preferred) }
        return (GoogleCSVExporter.label(googleWord: text) ?? Label(text), preferred)
    }
}
