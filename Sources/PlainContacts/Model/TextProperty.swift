/// Where one text property of a person goes in each format the store reads and writes: its
/// vCard property (or its place in a structured one), the CSV headers that hold it, its Google
/// and Outlook CSV column and its LDIF attribute.
///
/// Every person property of type ``PropertyType/string`` has one entry in ``all``, and the
/// formats read the entries instead of naming the properties: the vCard mapping and export
/// (and the origins a record keeps of its card's lines), the CSV and LDIF readers and writers.
/// Adding a text property is adding its ``PropertyID``, its entry in `TextProperty+Table.swift`
/// and its accessor on ``Person``; the article "Adding a property" lists the steps.
///
/// ```swift
/// TextProperty.named(.jobTitle)?.vCardName          // "TITLE"
/// TextProperty.components(of: "ORG").map(\.id)      // [.organization, .department]
/// ```
struct TextProperty: Sendable {
    /// Where among a person's values a property is written, in the formats that keep an order
    /// of their own (vCard, Google's and Outlook's CSV, LDIF) and in the CSV import's cards.
    enum Section: Sendable, CaseIterable {
        /// With the name: after `N` and `FN` in a card, among the name columns of a CSV file.
        case name
        /// With the organization: after `ORG` in a card, among the work columns.
        case work
        /// After every other value: before `PHOTO` in a card, after the birthday in Google's
        /// CSV, after the manager's name in Outlook's, after the birthday in LDIF.
        case notes
    }

    /// How a property is written in a vCard.
    enum VCardPlace: Sendable, Equatable {
        /// A component of a structured property, counted from 0: `N`'s last name, first name,
        /// middle name, prefix and suffix; `ORG`'s organization and department (the
        /// department takes the further units, joined with `", "`). Their reading and writing
        /// is the structured property's.
        case component(of: String, at: Int)
        /// `FN`, which export writes from the composite name when the property is absent and
        /// import keeps only when it differs from the composite name.
        case formattedName
        /// A property of its own with a text value, such as `TITLE`.
        case text(String, Repeats)
    }

    /// What a card with several lines of a text property's name means.
    enum Repeats: Sendable, Equatable {
        /// A card holds one (`X-PHONETIC-FIRST-NAME`): the first line is the value, later ones
        /// are kept with the record and left out of exports, which write the value.
        case once
        /// vCard allows several (`TITLE`) and the model keeps one: the first line is the value,
        /// later ones are kept with the record and exported after it.
        case firstOfSeveral
        /// Every line's text is part of the value, joined with the separator (`NOTE`'s blank
        /// line).
        case joined(String)
        /// Every line is a comma-separated list (`NICKNAME`); the items of all lines, trimmed,
        /// are joined with the separator.
        case list(String)
    }

    /// An LDIF attribute, as Thunderbird writes it, with the other names readers accept.
    struct LDIFName: Sendable {
        /// The attribute export writes, such as `mozillaNickname`.
        var name: String
        /// Further attribute names import reads as this one, such as `xmozillanickname`.
        var aliases: [String] = []

        init(_ name: String, aliases: [String] = []) {
            self.name = name
            self.aliases = aliases
        }

        /// Every name import reads, lower case.
        var names: [String] { ([name] + aliases).map { $0.lowercased() } }
    }

    /// The property.
    let id: PropertyID
    /// Where the formats that keep an order write it.
    let section: Section
    /// How a vCard holds it.
    let vCard: VCardPlace
    /// The CSV headers import reads as the property, in every layout and language it knows
    /// (compared as ``CSVHeaderNames`` folds them: case, accents, spaces and punctuation do not
    /// count).
    let csvHeaders: [String]
    /// What joins the cells of several columns of the property in one CSV row (two `Nickname`
    /// columns); `nil` when the last one wins.
    let csvSeparator: String?
    /// Its column in Google's CSV, which ``googleOrder`` places.
    let google: String?
    /// Its column in Outlook's CSV, which ``outlookOrder`` places.
    let outlook: String?
    /// Its LDIF attribute, which ``ldifOrder`` places.
    let ldif: LDIFName?

    init(
        _ id: PropertyID, _ section: Section, vCard: VCardPlace, csv csvHeaders: [String] = [],
        csvSeparator: String? = nil, google: String? = nil, outlook: String? = nil, ldif: LDIFName? = nil
    ) {
        self.id = id
        self.section = section
        self.vCard = vCard
        self.csvHeaders = csvHeaders
        self.csvSeparator = csvSeparator
        self.google = google
        self.outlook = outlook
        self.ldif = ldif
    }

    /// The vCard property name of a property of its own, or `nil` for a component or `FN`.
    var vCardName: String? {
        if case .text(let name, _) = vCard { return name }
        return nil
    }

    /// The entry of `property`, or `nil` for a property that is not text.
    static func named(_ property: PropertyID) -> TextProperty? { byID[property] }

    /// The entry whose vCard property of its own is `name` (upper case), or `nil`.
    static func withVCardName(_ name: String) -> TextProperty? { byVCardName[name] }

    /// The entry whose LDIF attribute (or one of its aliases) is `name` (lower case), or `nil`.
    static func withLDIFAttribute(_ name: String) -> TextProperty? { byLDIFAttribute[name] }

    /// The components of the structured vCard property `name` (`"N"`, `"ORG"`), in order.
    static func components(of name: String) -> [TextProperty] {
        all.compactMap { entry -> (Int, TextProperty)? in
            guard case .component(let structured, let index) = entry.vCard, structured == name else { return nil }
            return (index, entry)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The entries of `section` with a vCard property of their own, in table order.
    static func vCardTexts(in section: Section) -> [TextProperty] {
        vCardTextsBySection[section] ?? []
    }

    /// The entries with a Google column, in Google's order, in `sections`.
    static func googleColumns(in sections: Set<Section>) -> [TextProperty] {
        ordered(googleOrder).filter { $0.google != nil && sections.contains($0.section) }
    }

    /// The entries with an Outlook column, in Outlook's order, in `sections`.
    static func outlookColumns(in sections: Set<Section>) -> [TextProperty] {
        ordered(outlookOrder).filter { $0.outlook != nil && sections.contains($0.section) }
    }

    /// The entries with an LDIF attribute, in the order export writes them, in `section`.
    static func ldifAttributes(in section: Section) -> [TextProperty] {
        ordered(ldifOrder).filter { $0.ldif != nil && $0.section == section }
    }

    /// The properties that a vCard's structured or own lines name, by the card property's
    /// name: `"N"` the five name parts, `"ORG"` the organization and department, `"TITLE"` the
    /// job title.
    static let byVCardProperty: [String: [PropertyID]] = {
        var result: [String: [PropertyID]] = [:]
        for entry in all {
            switch entry.vCard {
            case .text(let name, _): result[name, default: []].append(entry.id)
            case .component(let name, _): result[name, default: []].append(entry.id)
            case .formattedName: break
            }
        }
        return result
    }()

    private static func ordered(_ order: [PropertyID]) -> [TextProperty] {
        order.compactMap(named)
    }

    private static let vCardTextsBySection: [Section: [TextProperty]] = Dictionary(
        grouping: all.filter { $0.vCardName != nil }, by: \.section)

    private static let byID: [PropertyID: TextProperty] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.id, $0) })

    private static let byVCardName: [String: TextProperty] = Dictionary(
        uniqueKeysWithValues: all.compactMap { entry in entry.vCardName.map { ($0, entry) } })

    private static let byLDIFAttribute: [String: TextProperty] = Dictionary(
        uniqueKeysWithValues: all.flatMap { entry in (entry.ldif?.names ?? []).map { ($0, entry) } })
}
