/// Writes people in Outlook's CSV layout (English headers), which Outlook, Outlook.com and
/// Google's "Outlook CSV" import read.
///
/// The text properties come first, in Outlook's order (``TextProperty/outlookOrder``), those of
/// the notes section after "Manager's Name". Outlook has fixed columns: three emails, one
/// address each for business, home and other, and one column per kind of phone (two for
/// business and home). A value goes to the column of its label; one without a column of its
/// own to the "Other" ones while they are free. Dates are written `M/D/YYYY`, as Outlook in
/// English writes them; a date without a year as `--MM-DD`, which the importer here reads
/// back. Groups go into "Categories", separated by `;`.
///
/// ```swift
/// let text = OutlookCSVExporter.csv(for: people, groupNames: { book.groups(containing: $0).compactMap(\.name) })
/// ```
enum OutlookCSVExporter {
    /// The columns written besides the text properties', in Outlook's order.
    private enum Column: String, CaseIterable {
        case businessStreet = "Business Street", businessCity = "Business City", businessState = "Business State"
        case businessPostalCode = "Business Postal Code", businessCountry = "Business Country/Region"
        case homeStreet = "Home Street", homeCity = "Home City", homeState = "Home State"
        case homePostalCode = "Home Postal Code", homeCountry = "Home Country/Region"
        case otherStreet = "Other Street", otherCity = "Other City", otherState = "Other State"
        case otherPostalCode = "Other Postal Code", otherCountry = "Other Country/Region"
        case assistantPhone = "Assistant's Phone", businessFax = "Business Fax", businessPhone = "Business Phone"
        case businessPhone2 = "Business Phone 2", callback = "Callback", carPhone = "Car Phone"
        case companyMainPhone = "Company Main Phone", homeFax = "Home Fax", homePhone = "Home Phone"
        case homePhone2 = "Home Phone 2", isdn = "ISDN", mobilePhone = "Mobile Phone", otherFax = "Other Fax"
        case otherPhone = "Other Phone", pager = "Pager", primaryPhone = "Primary Phone", radioPhone = "Radio Phone"
        case ttyPhone = "TTY/TDD Phone", telex = "Telex"
        case anniversary = "Anniversary", assistantName = "Assistant's Name", birthday = "Birthday"
        case businessPOBox = "Business Address PO Box", categories = "Categories", children = "Children"
        case email = "E-mail Address", email2 = "E-mail 2 Address", email3 = "E-mail 3 Address"
        case homePOBox = "Home Address PO Box", managerName = "Manager's Name"
        case otherPOBox = "Other Address PO Box", spouse = "Spouse", webPage = "Web Page"
        case personalWebPage = "Personal Web Page"
    }

    /// The phone columns each label goes to, in order of preference.
    private static let phoneColumns: [Label: [Column]] = [
        .work: [.businessPhone, .businessPhone2], .home: [.homePhone, .homePhone2], .mobile: [.mobilePhone],
        .iPhone: [.mobilePhone], .main: [.primaryPhone], .workFax: [.businessFax], .homeFax: [.homeFax],
        .otherFax: [.otherFax], .pager: [.pager], Label("car"): [.carPhone], .assistant: [.assistantPhone],
        Label("company main"): [.companyMainPhone],
        Label("callback"): [.callback], Label("ISDN"): [.isdn], Label("radio"): [.radioPhone],
        Label("telex"): [.telex], Label("TTY/TDD"): [.ttyPhone],
    ]

    /// The text properties with a column before the others, and after "Manager's Name".
    private static let leadingTexts = TextProperty.outlookColumns(in: [.name, .work])
    private static let trailingTexts = TextProperty.outlookColumns(in: [.notes])

    /// The columns up to "Manager's Name", after which Outlook has its notes, and the rest.
    private static let notesIndex = (Column.allCases.firstIndex(of: .managerName) ?? Column.allCases.count - 1) + 1
    private static let columnsBeforeNotes = Column.allCases[..<notesIndex]
    private static let columnsAfterNotes = Column.allCases[notesIndex...]

    /// Where a phone goes when its own columns are taken.
    private static let spareColumns: [Column] = [.otherPhone, .businessPhone2, .homePhone2, .primaryPhone]

    /// The CSV text for `people`, the header first.
    static func csv(for people: [Person], groupNames: (Person) -> [String]) -> String {
        var writer = CSVWriter()
        writer.row(
            leadingTexts.compactMap(\.outlook) + columnsBeforeNotes.map(\.rawValue) + trailingTexts.compactMap(\.outlook)
                + columnsAfterNotes.map(\.rawValue))
        for person in people {
            var cells: [Column: String] = [:]
            func set(_ column: Column, _ value: String?) {
                if let value, !value.isEmpty, cells[column] == nil { cells[column] = value }
            }
            for entry in person.phones {
                let wanted = (entry.label.flatMap { phoneColumns[$0] } ?? []) + spareColumns
                if let column = wanted.first(where: { cells[$0] == nil }) { set(column, entry.value) }
            }
            for (column, email) in zip([Column.email, .email2, .email3], person.emails.values) { set(column, email) }
            for entry in person.addresses {
                let columns: [Column]
                switch entry.label {
                case .work?: columns = [.businessStreet, .businessCity, .businessState, .businessPostalCode, .businessCountry, .businessPOBox]
                case .home?: columns = [.homeStreet, .homeCity, .homeState, .homePostalCode, .homeCountry, .homePOBox]
                default: columns = [.otherStreet, .otherCity, .otherState, .otherPostalCode, .otherCountry, .otherPOBox]
                }
                guard cells[columns[0]] == nil, cells[columns[1]] == nil else { continue }
                let address = entry.value
                let street = [address.extendedAddress, address.street].compactMap { $0 }.filter { !$0.isEmpty }
                    .joined(separator: "\n")
                for (column, value) in zip(columns, [street, address.city, address.state, address.zip, address.country, address.poBox]) {
                    set(column, value)
                }
            }
            for entry in person.urls {
                set(entry.label == .homePage && cells[.personalWebPage] == nil ? .personalWebPage : .webPage, entry.value)
            }
            for entry in person.relatedNames {
                switch entry.label {
                case .spouse?, .partner?: set(.spouse, entry.value)
                case .manager?: set(.managerName, entry.value)
                case .assistant?: set(.assistantName, entry.value)
                case .child?: cells[.children] = [cells[.children], entry.value].compactMap { $0 }.joined(separator: ", ")
                default: break
                }
            }
            set(.birthday, person.birthday.map(date))
            set(.anniversary, person.dates.first { $0.label == .anniversary }.map { date($0.value) })
            set(.categories, groupNames(person).joined(separator: ";"))
            writer.row(
                leadingTexts.map { person.text($0.id) ?? "" } + columnsBeforeNotes.map { cells[$0] ?? "" }
                    + trailingTexts.map { person.text($0.id) ?? "" } + columnsAfterNotes.map { cells[$0] ?? "" })
        }
        return writer.text
    }

    /// `M/D/YYYY`, or `--MM-DD` without a year.
    private static func date(_ date: ContactDate) -> String {
        guard let year = date.year else { return date.description }
        return "\(date.month)/\(date.day)/\(year)"
    }
}
