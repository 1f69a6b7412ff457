/// What a CSV column holds, as ``CSVHeaderNames`` reads its header.
enum CSVField: Hashable, Sendable {
    /// A text property (``TextProperty``): a name part, the name to show (the formatted name),
    /// the nickname, the organization, the note…
    case text(PropertyID)
    /// Outlook's "Title" (the name prefix), or Yahoo's (the job title): the other headers tell.
    case title
    case birthday, birthYear, birthMonth, birthDay, anniversary
    case groups
    case email(Label?)
    case phone(Label?)
    case url(Label?)
    case address(Label?, AddressPart)
    /// An instant-messaging account, with the service when the header names it.
    case instantMessage(String?)
    case related(Label)
    /// One part of Google's numbered columns, such as "E-mail 2 - Value".
    case numbered(NumberedKind, index: Int, NumberedPart)
    /// One part of a section of Gmail's 2007 layout, such as "Section 2 - Phone".
    case section(index: Int, SectionPart)

    /// A part of a postal address spread over columns.
    enum AddressPart: Hashable, Sendable {
        case street, street2, street3, city, region, postalCode, country, poBox, extended, formatted
    }

    /// The parts of a section of Gmail's 2007 layout: the description names the section
    /// (Personal, Work, Other or the user's own word) and labels its values.
    enum SectionPart: String, Hashable, Sendable {
        case description, email, instantMessage = "im", phone, mobile, pager, fax, company, title, address, other
    }

    /// The kinds of Google's numbered columns.
    enum NumberedKind: Hashable, Sendable {
        case email, phone, address, organization, relation, website, event, customField, instantMessage
    }

    /// The parts of Google's numbered columns.
    enum NumberedPart: Hashable, Sendable {
        case label, value, service
        case address(AddressPart)
        case organizationName, organizationTitle, organizationDepartment
        /// Any other part, kept with the person under its header.
        case other
    }
}
