import FoundationEssentials

/// Typed accessors for every person property. Setting `nil`, an empty text or an empty
/// multi-value removes the property.
extension Person {
    /// The value of a text property (``PropertyType/string``), or `nil`: what the formats read
    /// for each entry of ``TextProperty/all``.
    func text(_ property: PropertyID) -> String? { state.string(property) }

    /// Sets a text property; `nil` or an empty text removes it, and an unchanged text leaves the
    /// record untouched.
    func setText(_ text: String?, _ property: PropertyID) {
        if let text, !text.isEmpty {
            if state.values[property] != .string(text) { state.values[property] = .string(text) }
        } else {
            removeValue(for: property)
        }
    }

    /// `kABPersonFirstNameProperty`.
    public var firstName: String? {
        get { text(.firstName) }
        set { setText(newValue, .firstName) }
    }

    /// `kABPersonLastNameProperty`.
    public var lastName: String? {
        get { text(.lastName) }
        set { setText(newValue, .lastName) }
    }

    /// `kABPersonMiddleNameProperty`.
    public var middleName: String? {
        get { text(.middleName) }
        set { setText(newValue, .middleName) }
    }

    /// `kABPersonPrefixProperty` ("Dr.", "Ms.").
    public var prefix: String? {
        get { text(.prefix) }
        set { setText(newValue, .prefix) }
    }

    /// `kABPersonSuffixProperty` ("Jr.", "PhD").
    public var suffix: String? {
        get { text(.suffix) }
        set { setText(newValue, .suffix) }
    }

    /// The name as the person's card writes it (vCard `FN`) when it differs from the composite
    /// name, such as "Forrest Gump" for a card whose `N` also holds the prefix "Mr."; `nil`
    /// otherwise. Exported as the card's `FN` instead of the composite name.
    public var formattedName: String? {
        get { text(.formattedName) }
        set { setText(newValue, .formattedName) }
    }

    /// `kABPersonNicknameProperty`.
    public var nickname: String? {
        get { text(.nickname) }
        set { setText(newValue, .nickname) }
    }

    /// `kABPersonFirstNamePhoneticProperty`: how the first name is read, such as a kana reading.
    public var firstNamePhonetic: String? {
        get { text(.firstNamePhonetic) }
        set { setText(newValue, .firstNamePhonetic) }
    }

    /// `kABPersonMiddleNamePhoneticProperty`.
    public var middleNamePhonetic: String? {
        get { text(.middleNamePhonetic) }
        set { setText(newValue, .middleNamePhonetic) }
    }

    /// `kABPersonLastNamePhoneticProperty`.
    public var lastNamePhonetic: String? {
        get { text(.lastNamePhonetic) }
        set { setText(newValue, .lastNamePhonetic) }
    }

    /// `kABPersonOrganizationProperty`.
    public var organization: String? {
        get { text(.organization) }
        set { setText(newValue, .organization) }
    }

    /// `kABOrganizationPhoneticProperty` (macOS): how the organization's name is read.
    public var organizationPhonetic: String? {
        get { text(.organizationPhonetic) }
        set { setText(newValue, .organizationPhonetic) }
    }

    /// `kABPersonDepartmentProperty`.
    public var department: String? {
        get { text(.department) }
        set { setText(newValue, .department) }
    }

    /// `kABPersonJobTitleProperty`.
    public var jobTitle: String? {
        get { text(.jobTitle) }
        set { setText(newValue, .jobTitle) }
    }

    /// `kABPersonNoteProperty`.
    public var note: String? {
        get { text(.note) }
        set { setText(newValue, .note) }
    }

    /// `kABPersonBirthdayProperty`; the year may be unknown.
    public var birthday: ContactDate? {
        get {
            if case .date(let date)? = state.values[.birthday] { return date }
            return nil
        }
        set {
            if let newValue {
                if state.values[.birthday] != .date(newValue) { state.values[.birthday] = .date(newValue) }
            } else {
                removeValue(for: .birthday)
            }
        }
    }

    /// `kABPersonKindProperty`: person (the default) or organization.
    public var kind: PersonKind {
        get {
            if case .kind(let kind)? = state.values[.kind] { return kind }
            return .person
        }
        set {
            if newValue == .person {
                removeValue(for: .kind)
            } else if state.values[.kind] != .kind(newValue) {
                state.values[.kind] = .kind(newValue)
            }
        }
    }

    /// `kABPersonCreationDateProperty`: when the person was first saved.
    public var creationDate: Date? {
        if case .timestamp(let date)? = state.values[.creationDate] { return date }
        return nil
    }

    /// `kABPersonModificationDateProperty`: when a save last changed the person.
    public var modificationDate: Date? {
        if case .timestamp(let date)? = state.values[.modificationDate] { return date }
        return nil
    }

    private func multi<Value>(_ property: PropertyID, _ extract: (PropertyValue) -> MultiValue<Value>?) -> MultiValue<Value> {
        let stored = state.values[property].flatMap(extract) ?? MultiValue<Value>()
        return stored.continuing(from: state.nextValueIdentifier, spreading: key != nil)
    }

    private func setMulti(_ value: PropertyValue, _ property: PropertyID) {
        // The value's type always matches the property here. Setting fails only when a new
        // value needs an identifier and the record has handed out all 2,147,483,647 of them;
        // the property is then left as it was (``setValue(_:for:)`` throws the error).
        do { try setValue(value, for: property) } catch {}
    }

    /// `kABPersonPhoneProperty`.
    public var phones: MultiValue<String> {
        get { multi(.phones) { if case .multiString(let v) = $0 { v } else { nil } } }
        set { setMulti(.multiString(newValue), .phones) }
    }

    /// `kABPersonEmailProperty`.
    public var emails: MultiValue<String> {
        get { multi(.emails) { if case .multiString(let v) = $0 { v } else { nil } } }
        set { setMulti(.multiString(newValue), .emails) }
    }

    /// `kABPersonURLProperty`.
    public var urls: MultiValue<String> {
        get { multi(.urls) { if case .multiString(let v) = $0 { v } else { nil } } }
        set { setMulti(.multiString(newValue), .urls) }
    }

    /// `kABPersonRelatedNamesProperty`.
    public var relatedNames: MultiValue<String> {
        get { multi(.relatedNames) { if case .multiString(let v) = $0 { v } else { nil } } }
        set { setMulti(.multiString(newValue), .relatedNames) }
    }

    /// `kABPersonDateProperty`: anniversaries and other dates.
    public var dates: MultiValue<ContactDate> {
        get { multi(.dates) { if case .multiDate(let v) = $0 { v } else { nil } } }
        set { setMulti(.multiDate(newValue), .dates) }
    }

    /// `kABPersonAddressProperty`.
    public var addresses: MultiValue<PostalAddress> {
        get { multi(.addresses) { if case .multiAddress(let v) = $0 { v } else { nil } } }
        set { setMulti(.multiAddress(newValue), .addresses) }
    }

    /// `kABPersonInstantMessageProperty`.
    public var instantMessages: MultiValue<InstantMessage> {
        get { multi(.instantMessages) { if case .multiInstantMessage(let v) = $0 { v } else { nil } } }
        set { setMulti(.multiInstantMessage(newValue), .instantMessages) }
    }

    /// `kABPersonSocialProfileProperty`.
    public var socialProfiles: MultiValue<SocialProfile> {
        get { multi(.socialProfiles) { if case .multiSocialProfile(let v) = $0 { v } else { nil } } }
        set { setMulti(.multiSocialProfile(newValue), .socialProfiles) }
    }
}
