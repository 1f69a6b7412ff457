import Foundation
import PlainContacts

/// What an import made of one person, flattened into the values the import fidelity measure
/// looks a source field up in (see ``FieldMatcher``).
///
/// ```swift
/// let view = ImportedPersonView(person: person, in: book)
/// view.phones.first?.label   // "mobile"
/// ```
struct ImportedPersonView {
    /// A value of a multi-value property and the raw value of its label.
    struct Entry: Equatable {
        /// The value.
        var text: String
        /// The label's raw value, `nil` without one.
        var label: String?
    }

    /// An instant-messaging account or social profile.
    struct Account: Equatable {
        /// The user name, or the profile's address when it has no user name.
        var user: String
        /// The service (`AIM`, `Skype`), if known.
        var service: String?
        /// The label's raw value, `nil` without one.
        var label: String?
    }

    /// A field an import kept without a property for it: the column or property it came from
    /// (lowercased) and its value.
    struct Kept: Equatable {
        /// The column, attribute or property name, lowercased.
        var name: String
        /// The value, unescaped.
        var value: String
    }

    /// The name's parts, as ``Person`` has them.
    var givenName: String?
    var middleName: String?
    var familyName: String?
    var namePrefix: String?
    var nameSuffix: String?
    /// The name shown, when the person has one of its own.
    var formattedName: String?
    /// The name the store composes from the parts (or shows).
    var compositeName: String?
    var nickname: String?
    /// The phonetic first, middle and last names the person has.
    var phoneticNames: [String] = []
    var organization: String?
    var department: String?
    var jobTitle: String?
    var note: String?
    /// The multi-value properties, each value with its label.
    var emails: [Entry] = []
    var phones: [Entry] = []
    var urls: [Entry] = []
    var relatedNames: [Entry] = []
    var addresses: [(address: PostalAddress, label: String?)] = []
    /// Instant-messaging accounts, then social profiles.
    var accounts: [Account] = []
    var birthday: ContactDate?
    /// The other dates (anniversaries, events) with their labels.
    var dates: [(date: ContactDate, label: String?)] = []
    /// The names of the groups the person is in.
    var groups: [String] = []
    /// What the import kept without a property for it.
    var kept: [Kept] = []

    /// An empty view, filled by tests.
    init() {}

    /// The view of `person`, who belongs to `book`.
    init(person: Person, in book: AddressBook) {
        givenName = person.firstName
        middleName = person.middleName
        familyName = person.lastName
        namePrefix = person.prefix
        nameSuffix = person.suffix
        formattedName = person.formattedName
        compositeName = person.compositeName
        nickname = person.nickname
        phoneticNames = [person.firstNamePhonetic, person.middleNamePhonetic, person.lastNamePhonetic].compactMap { $0 }
        organization = person.organization
        department = person.department
        jobTitle = person.jobTitle
        note = person.note
        emails = person.emails.map { Entry(text: $0.value, label: $0.label?.rawValue) }
        phones = person.phones.map { Entry(text: $0.value, label: $0.label?.rawValue) }
        urls = person.urls.map { Entry(text: $0.value, label: $0.label?.rawValue) }
        relatedNames = person.relatedNames.map { Entry(text: $0.value, label: $0.label?.rawValue) }
        addresses = person.addresses.map { ($0.value, $0.label?.rawValue) }
        accounts = person.instantMessages.compactMap { entry in
            entry.value.username.map { Account(user: $0, service: entry.value.service, label: entry.label?.rawValue) }
        }
        accounts += person.socialProfiles.compactMap { entry in
            (entry.value.username ?? entry.value.url).map {
                Account(user: $0, service: entry.value.service, label: entry.label?.rawValue)
            }
        }
        birthday = person.birthday
        dates = person.dates.map { ($0.value, $0.label?.rawValue) }
        groups = book.groups(containing: person).compactMap(\.name)
        kept = VCardRecordFields.lines(of: person.state).map(Self.kept)
    }

    /// A kept content line as its column and value: `X-IMPORTED-FIELD;X-NAME="Gender":f` is
    /// `gender` and `f`; any other line (`GENDER:F`) is its property name and value.
    static func kept(_ text: String) -> Kept {
        let line = FidelityLine(text)
        let column = line.key.parameters.first { $0.hasPrefix("x-name=") }.map { String($0.dropFirst("x-name=".count)) }
        return Kept(name: column ?? line.name.lowercased(), value: line.key.value)
    }

    /// Every single value of the person, multi-line values also line by line: where a field the
    /// model has no property for may be found.
    var allValues: [String] {
        var values = [
            givenName, middleName, familyName, namePrefix, nameSuffix, formattedName, compositeName, nickname,
            organization, department, jobTitle, note,
        ].compactMap { $0 }
        values += phoneticNames + groups
        values += (emails + phones + urls + relatedNames).map(\.text)
        values += accounts.map(\.user) + kept.map(\.value)
        for (address, _) in addresses {
            values += [address.street, address.extendedAddress, address.poBox, address.city, address.state, address.zip]
                .compactMap { $0 }
            values += [address.country, address.countryCode].compactMap { $0 }
        }
        values += ([birthday].compactMap { $0 } + dates.map(\.date)).map(\.description)
        return values + values.filter { $0.contains("\n") }.flatMap { $0.split(separator: "\n").map(String.init) }
    }
}
