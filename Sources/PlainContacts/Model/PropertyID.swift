/// Names a property of a person or group record, with its declared type.
///
/// The identifier is also the property's key in the record's JSON file.
///
/// The AddressBook equivalent is `ABPropertyID` and its constants (`kABPersonFirstNameProperty`,
/// `kABPersonPhoneProperty`, `kABGroupNameProperty`…).
///
/// ```swift
/// print(PropertyID.phones.type)              // multiString
/// print(PropertyID.jobTitle.localizedName)   // job title
/// let value = person.value(for: .organization)
/// ```
public struct PropertyID: Hashable, Sendable, CustomStringConvertible {
    /// The property's key in a record file, such as `"firstName"`.
    public let key: String
    /// The declared type; values of another type are refused.
    public let type: PropertyType
    /// The type of record the property belongs to.
    public let recordType: RecordType
    /// Whether the store maintains the value itself (creation and modification dates).
    public let isReadOnly: Bool
    /// The property's name for people to read, in lower case as a label within a sentence or
    /// a list: `job title`, `phonetic first name`, `phone`. The readable view of a record file
    /// (`contacts textconv`) and `contacts show` label values with it.
    ///
    /// The AddressBook equivalent is `ABPersonCopyLocalizedPropertyName`; the name is English.
    public let localizedName: String

    private init(
        _ key: String, _ type: PropertyType, _ localizedName: String, _ recordType: RecordType = .person,
        readOnly: Bool = false
    ) {
        self.key = key
        self.type = type
        self.localizedName = localizedName
        self.recordType = recordType
        self.isReadOnly = readOnly
    }

    public var description: String { key }

    // Properties are told apart by their key alone (no two share one), so hashing and
    // comparing the key is enough: every property access hashes a property ID.
    public static func == (lhs: PropertyID, rhs: PropertyID) -> Bool {
        lhs.key == rhs.key
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    /// `kABPersonFirstNameProperty`.
    public static let firstName = PropertyID("firstName", .string, "first name")
    /// `kABPersonLastNameProperty`.
    public static let lastName = PropertyID("lastName", .string, "last name")
    /// `kABPersonMiddleNameProperty`.
    public static let middleName = PropertyID("middleName", .string, "middle name")
    /// `kABPersonPrefixProperty`.
    public static let prefix = PropertyID("prefix", .string, "prefix")
    /// `kABPersonSuffixProperty`.
    public static let suffix = PropertyID("suffix", .string, "suffix")
    /// The name as the person's card writes it (vCard `FN`), kept only when it differs from the
    /// composite name the other name properties give, such as "Forrest Gump" beside the prefix
    /// "Mr." or "ABC Marketing" for a person at that company. AddressBook has no equivalent.
    public static let formattedName = PropertyID("formattedName", .string, "formatted name")
    /// `kABPersonNicknameProperty`.
    public static let nickname = PropertyID("nickname", .string, "nickname")
    /// `kABPersonFirstNamePhoneticProperty`.
    public static let firstNamePhonetic = PropertyID("firstNamePhonetic", .string, "phonetic first name")
    /// `kABPersonLastNamePhoneticProperty`.
    public static let lastNamePhonetic = PropertyID("lastNamePhonetic", .string, "phonetic last name")
    /// `kABPersonMiddleNamePhoneticProperty`.
    public static let middleNamePhonetic = PropertyID("middleNamePhonetic", .string, "phonetic middle name")
    /// `kABPersonOrganizationProperty`.
    public static let organization = PropertyID("organization", .string, "organization")
    /// `kABOrganizationPhoneticProperty` in the macOS AddressBook (the iOS one has none): how the
    /// organization's name is read, such as a kana reading.
    public static let organizationPhonetic = PropertyID("organizationPhonetic", .string, "phonetic organization")
    /// `kABPersonDepartmentProperty`.
    public static let department = PropertyID("department", .string, "department")
    /// `kABPersonJobTitleProperty`.
    public static let jobTitle = PropertyID("jobTitle", .string, "job title")
    /// `kABPersonNoteProperty`.
    public static let note = PropertyID("note", .string, "note")
    /// `kABPersonBirthdayProperty`; the year may be absent.
    public static let birthday = PropertyID("birthday", .date, "birthday")
    /// `kABPersonKindProperty`.
    public static let kind = PropertyID("kind", .kind, "kind")
    /// `kABPersonCreationDateProperty`, set by the first save.
    public static let creationDate = PropertyID("created", .timestamp, "created", readOnly: true)
    /// `kABPersonModificationDateProperty`, set by every save that changes the record.
    public static let modificationDate = PropertyID("modified", .timestamp, "modified", readOnly: true)
    /// `kABPersonPhoneProperty`.
    public static let phones = PropertyID("phones", .multiString, "phone")
    /// `kABPersonEmailProperty`.
    public static let emails = PropertyID("emails", .multiString, "email")
    /// `kABPersonURLProperty`.
    public static let urls = PropertyID("urls", .multiString, "URL")
    /// `kABPersonRelatedNamesProperty`.
    public static let relatedNames = PropertyID("relatedNames", .multiString, "related name")
    /// `kABPersonDateProperty` (anniversaries and other dates).
    public static let dates = PropertyID("dates", .multiDate, "date")
    /// `kABPersonAddressProperty`.
    public static let addresses = PropertyID("addresses", .multiAddress, "address")
    /// `kABPersonInstantMessageProperty`.
    public static let instantMessages = PropertyID("instantMessages", .multiInstantMessage, "instant message")
    /// `kABPersonSocialProfileProperty`.
    public static let socialProfiles = PropertyID("socialProfiles", .multiSocialProfile, "social profile")

    /// `kABGroupNameProperty`.
    public static let groupName = PropertyID("name", .string, "name", .group)

    /// Every person property, in the order the person view shows them.
    public static let personProperties: [PropertyID] = [
        .prefix, .firstName, .middleName, .lastName, .suffix, .formattedName, .nickname,
        .firstNamePhonetic, .middleNamePhonetic, .lastNamePhonetic,
        .organization, .organizationPhonetic, .department, .jobTitle, .kind, .birthday,
        .phones, .emails, .urls, .addresses, .dates, .relatedNames,
        .instantMessages, .socialProfiles, .note, .creationDate, .modificationDate,
    ]

    /// Every group property.
    public static let groupProperties: [PropertyID] = [.groupName]

    /// The person property stored under a JSON key, or `nil`.
    public static func person(key: String) -> PropertyID? { personByKey[key] }

    private static let personByKey: [String: PropertyID] = Dictionary(
        uniqueKeysWithValues: personProperties.map { ($0.key, $0) })
}
