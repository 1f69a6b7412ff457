/// Writes people in Google Contacts' current CSV layout, which Google, Outlook.com and iCloud
/// import: one row per person, one numbered group of columns per email, phone, address,
/// relation, website, event, account and kept field ("E-mail 2 - Label", "E-mail 2 - Value"),
/// as many as the person with the most needs.
///
/// The text properties come first, in Google's order (``TextProperty/googleOrder``), those of
/// the notes section after "Birthday". Labels are Google's words for predefined labels (Home,
/// Work, Mobile, Home Fax...) and the text of custom ones; groups go into "Labels" after
/// Google's `* myContacts`; dates are `YYYY-MM-DD`, or `--MM-DD` without a year. Columns CSV
/// imports kept with a person come back as custom fields.
///
/// ```swift
/// let text = GoogleCSVExporter.csv(for: people, groupNames: { book.groups(containing: $0).compactMap(\.name) })
/// ```
enum GoogleCSVExporter {
    /// The text properties with a column before "Birthday", and after it.
    private static let leadingTexts = TextProperty.googleColumns(in: [.name, .work])
    private static let trailingTexts = TextProperty.googleColumns(in: [.notes])

    /// The columns every row has: the text properties', "Birthday", "Photo" and "Labels".
    private static let fixedHeaders =
        leadingTexts.compactMap(\.google) + ["Birthday"] + trailingTexts.compactMap(\.google) + ["Photo", "Labels"]

    private static let addressParts = [
        "Formatted", "Street", "City", "PO Box", "Region", "Postal Code", "Country", "Extended Address",
    ]

    /// The CSV text for `people`, the header first.
    static func csv(for people: [Person], groupNames: (Person) -> [String]) -> String {
        let counts = (
            emails: people.map(\.emails.count).max() ?? 0, phones: people.map(\.phones.count).max() ?? 0,
            addresses: people.map(\.addresses.count).max() ?? 0,
            relations: people.map(\.relatedNames.count).max() ?? 0, websites: people.map(\.urls.count).max() ?? 0,
            events: people.map(\.dates.count).max() ?? 0, accounts: people.map(\.instantMessages.count).max() ?? 0,
            custom: people.map { KeptField.fields(of: $0, format: CSVContactReader.formatName).count }.max() ?? 0
        )
        var header = fixedHeaders
        func numbered(_ kind: String, _ count: Int, _ parts: [String]) {
            guard count > 0 else { return }
            for index in 1...count { header += parts.map { "\(kind) \(index) - \($0)" } }
        }
        numbered("E-mail", counts.emails, ["Label", "Value"])
        numbered("Phone", counts.phones, ["Label", "Value"])
        numbered("Address", counts.addresses, ["Label"] + addressParts)
        numbered("Relation", counts.relations, ["Label", "Value"])
        numbered("Website", counts.websites, ["Label", "Value"])
        numbered("Event", counts.events, ["Label", "Value"])
        numbered("IM", counts.accounts, ["Label", "Service", "Value"])
        numbered("Custom Field", counts.custom, ["Label", "Value"])

        var writer = CSVWriter()
        writer.row(header)
        for person in people {
            var row = leadingTexts.map { person.text($0.id) ?? "" }
            row.append(person.birthday?.description ?? "")
            row += trailingTexts.map { person.text($0.id) ?? "" }
            row += ["", (["* myContacts"] + groupNames(person)).joined(separator: " ::: ")]
            func pad<Entry>(_ entries: [Entry], _ count: Int, width: Int, _ cells: (Entry) -> [String]) {
                for entry in entries { row += cells(entry) }
                row += Array(repeating: "", count: (count - entries.count) * width)
            }
            pad(Array(person.emails), counts.emails, width: 2) { [label($0.label), $0.value] }
            pad(Array(person.phones), counts.phones, width: 2) { [label($0.label), $0.value] }
            pad(Array(person.addresses), counts.addresses, width: 9) { entry in
                let address = entry.value
                return [label(entry.label), formatted(address)]
                    + [address.street, address.city, address.poBox, address.state, address.zip, address.country,
                        address.extendedAddress].map { $0 ?? "" }
            }
            pad(Array(person.relatedNames), counts.relations, width: 2) { [label($0.label), $0.value] }
            pad(Array(person.urls), counts.websites, width: 2) { [label($0.label), $0.value] }
            pad(Array(person.dates), counts.events, width: 2) { [label($0.label), $0.value.description] }
            pad(Array(person.instantMessages), counts.accounts, width: 3) {
                [label($0.label), $0.value.service ?? "", $0.value.username ?? ""]
            }
            pad(KeptField.fields(of: person, format: CSVContactReader.formatName), counts.custom, width: 2) {
                [$0.name, $0.value]
            }
            writer.row(row)
        }
        return writer.text
    }

    /// Google's word for a label: the predefined ones as Google writes them, custom ones as is.
    static func label(_ label: Label?) -> String {
        guard let label else { return "" }
        return googleWords[label] ?? label.rawValue
    }

    /// The label one of Google's words stands for, compared without case ("Home Fax",
    /// "homepage"); `nil` for a custom label.
    static func label(googleWord word: String) -> Label? {
        labelsByWord[word.lowercased()]
    }

    private static let labelsByWord: [String: Label] = Dictionary(
        uniqueKeysWithValues: googleWords.map { ($0.value.lowercased(), $0.key) }
    ).merging(["homepage": .homePage]) { first, _ in first }

    private static let googleWords: [Label: String] = [
        .home: "Home", .work: "Work", .other: "Other", .mobile: "Mobile", .iPhone: "iPhone", .main: "Main",
        .homeFax: "Home Fax", .workFax: "Work Fax", .otherFax: "Other Fax", .pager: "Pager",
        .homePage: "Home Page", .anniversary: "Anniversary", .father: "Father", .mother: "Mother",
        .parent: "Parent", .brother: "Brother", .sister: "Sister", .child: "Child", .friend: "Friend",
        .spouse: "Spouse", .partner: "Partner", .assistant: "Assistant", .manager: "Manager",
    ]

    /// The address as one text, as Google's "Formatted" column holds it.
    private static func formatted(_ address: PostalAddress) -> String {
        let cityLine = [address.zip, address.city, address.state].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: " ")
        return [address.poBox, address.extendedAddress, address.street, cityLine, address.country]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
