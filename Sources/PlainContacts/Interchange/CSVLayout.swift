/// What each column of a CSV file holds, from its header row, and how its cells are written.
struct CSVLayout {
    /// The headers as written.
    let headers: [String]
    /// What each column holds; `nil` for a header ``CSVHeaderNames`` does not know.
    let fields: [CSVField?]
    /// Whether ambiguous dates (`3/4/1990`) are day-first: headers in English say month-first,
    /// as American exports write them; any other language day-first.
    let dayFirst: Bool
    /// Whether the file is Google's: its cells may hold several values separated by ` ::: `.
    let isGoogle: Bool
    /// The layout's name when the content told it: Gmail's 2007 sections, or rows without a
    /// header (see ``headerless(_:)``).
    var name: String?

    /// Whether any column is one this reader knows.
    var knowsAnyColumn: Bool { fields.contains { $0 != nil } }

    init(header: [String]) {
        headers = header.map(CardBuilder.trimmed)
        let read = headers.map(CSVHeaderNames.field)
        let keys = Set(headers.map(CSVHeaderNames.key))
        // Outlook's "Title" is the name prefix, beside its "Suffix" and "Job Title"; Yahoo's is
        // the job title, and so is KAddressBook's, beside its "Honorific Prefixes".
        // Thunderbird's German "Geburtstag" is the day, beside the month.
        let hasSuffixOrJob = !read.contains { $0 == .text(.prefix) }
            && read.contains { $0 == .text(.suffix) || $0 == .text(.jobTitle) }
        let hasBirthMonth = read.contains { $0 == .birthMonth }
        fields = read.map { field in
            switch field {
            case .title?: hasSuffixOrJob ? .text(.prefix) : .text(.jobTitle)
            case .birthday? where hasBirthMonth: .birthDay
            default: field
            }
        }
        let english = ["firstname", "givenname", "lastname", "name", "displayname", "emailaddress", "birthday"]
        dayFirst = !english.contains { keys.contains($0) }
        let hasSections = read.contains { if case .section? = $0 { true } else { false } }
        isGoogle = hasSections || read.contains { if case .numbered? = $0 { true } else { false } }
        name = hasSections ? "Gmail's 2007 layout" : nil
    }
}
