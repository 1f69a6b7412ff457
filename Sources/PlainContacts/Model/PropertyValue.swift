import FoundationEssentials

/// The declared type of a property.
///
/// The AddressBook equivalent is `ABPropertyType` (`kABStringPropertyType`,
/// `kABMultiStringPropertyType`…), returned by `ABPersonGetTypeOfProperty`.
public enum PropertyType: String, Sendable, Hashable, CaseIterable {
    /// Text (`kABStringPropertyType`).
    case string
    /// A point in time (`kABDateTimePropertyType`): creation and modification dates.
    case timestamp
    /// A calendar date that may lack a year: the birthday.
    case date
    /// Person or organization (`kABIntegerPropertyType` for `kABPersonKindProperty`).
    case kind
    /// Labelled texts (`kABMultiStringPropertyType`).
    case multiString
    /// Labelled calendar dates (`kABMultiDateTimePropertyType`).
    case multiDate
    /// Labelled postal addresses (`kABMultiDictionaryPropertyType`).
    case multiAddress
    /// Labelled instant-messaging accounts (`kABMultiDictionaryPropertyType`).
    case multiInstantMessage
    /// Labelled social profiles (`kABMultiDictionaryPropertyType`).
    case multiSocialProfile
}

/// The value of a property, tagged with its type.
///
/// The AddressBook equivalent is the `CFTypeRef` that `ABRecordCopyValue` returns; here the type
/// is explicit and ``Person/setValue(_:for:)`` refuses a value of the wrong type.
///
/// ```swift
/// try person.setValue(.string("Katie"), for: .firstName)
/// if case .multiString(let phones)? = person.value(for: .phones) { print(phones.count) }
/// ```
public enum PropertyValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// A point in time.
    case timestamp(Date)
    /// A calendar date that may lack a year.
    case date(ContactDate)
    /// Person or organization.
    case kind(PersonKind)
    /// Labelled texts.
    case multiString(MultiValue<String>)
    /// Labelled calendar dates.
    case multiDate(MultiValue<ContactDate>)
    /// Labelled postal addresses.
    case multiAddress(MultiValue<PostalAddress>)
    /// Labelled instant-messaging accounts.
    case multiInstantMessage(MultiValue<InstantMessage>)
    /// Labelled social profiles.
    case multiSocialProfile(MultiValue<SocialProfile>)

    /// The type of this value.
    public var type: PropertyType {
        switch self {
        case .string: .string
        case .timestamp: .timestamp
        case .date: .date
        case .kind: .kind
        case .multiString: .multiString
        case .multiDate: .multiDate
        case .multiAddress: .multiAddress
        case .multiInstantMessage: .multiInstantMessage
        case .multiSocialProfile: .multiSocialProfile
        }
    }

    /// Whether the value carries nothing (empty text or an empty multi-value); setting such a
    /// value removes the property.
    public var isEmpty: Bool {
        switch self {
        case .string(let text): text.isEmpty
        case .timestamp, .date, .kind: false
        case .multiString(let values): values.isEmpty
        case .multiDate(let values): values.isEmpty
        case .multiAddress(let values): values.isEmpty
        case .multiInstantMessage(let values): values.isEmpty
        case .multiSocialProfile(let values): values.isEmpty
        }
    }
}
