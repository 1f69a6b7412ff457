/// Where an import must put a value of another program's export for the import fidelity
/// measure to count it as kept (see ``FieldMatcher``).
///
/// The kind is read from the export itself (a CSV header, an LDIF attribute name, an abook
/// key), by the measure's own tables, never by the importer's.
///
/// ```swift
/// FieldKind.address(.city)   // equal to the city of one of the person's addresses
/// ```
enum FieldKind: Hashable, CustomStringConvertible {
    /// A part of a postal address.
    enum AddressPart: String, Hashable {
        /// A street line, a second or third street line, an extended address, a PO box: found
        /// in the street, extended address or PO box of an address.
        case street
        /// The city or locality.
        case city
        /// The state, region, province or prefecture.
        case region
        /// The postal or ZIP code.
        case postcode
        /// The country, by name or code.
        case country
        /// A whole address in one value, lines and commas included: every word of it found in
        /// one address.
        case formatted
    }

    /// A part of a date given in separate columns or attributes (Thunderbird's birth year,
    /// month and day).
    enum DatePart: String, Hashable {
        /// The year, written with its digits.
        case year
        /// The month, as a number or a month's name.
        case month
        /// The day of the month.
        case day
    }

    /// The first name.
    case givenName
    /// The middle name, or the additional names.
    case middleName
    /// The last name.
    case familyName
    /// The name's prefix (`Dr.`, `Herr`).
    case namePrefix
    /// The name's suffix (`Jr.`).
    case nameSuffix
    /// A whole name: the name shown, or every word of it among the name's parts.
    case displayName
    /// The nickname (an alias key is one).
    case nickname
    /// A reading of the name (yomi, furigana): any phonetic part of the name.
    case phoneticName
    /// The company.
    case organization
    /// The department.
    case department
    /// The job title.
    case jobTitle
    /// Text found in the note.
    case note
    /// An email address.
    case email
    /// A phone, fax or pager number.
    case phone
    /// A web page.
    case url
    /// An instant-messaging account, found as the user name of an account or a profile.
    case instantMessage
    /// A related person's name (spouse, assistant, manager, child).
    case relatedName
    case address(AddressPart)
    /// A whole birthday.
    case birthday
    /// A part of the birthday.
    case birthdayPart(DatePart)
    /// Another date (an anniversary, an event).
    case date
    /// A group the person belongs to.
    case group
    /// The name of a group record.
    case groupName
    /// A member of a group record: the email address (or name) of a person in the group.
    case member
    /// Anything the model has no property for: found in any property of the person, or kept
    /// as an imported field.
    case other

    /// `address.city`, `phone`.
    var description: String {
        switch self {
        case .address(let part): "address.\(part.rawValue)"
        case .birthdayPart(let part): "birthday.\(part.rawValue)"
        case .givenName: "givenName"
        case .middleName: "middleName"
        case .familyName: "familyName"
        case .namePrefix: "namePrefix"
        case .nameSuffix: "nameSuffix"
        case .displayName: "displayName"
        case .nickname: "nickname"
        case .phoneticName: "phoneticName"
        case .organization: "organization"
        case .department: "department"
        case .jobTitle: "jobTitle"
        case .note: "note"
        case .email: "email"
        case .phone: "phone"
        case .url: "url"
        case .instantMessage: "instantMessage"
        case .relatedName: "relatedName"
        case .birthday: "birthday"
        case .date: "date"
        case .group: "group"
        case .groupName: "groupName"
        case .member: "member"
        case .other: "other"
        }
    }
}
