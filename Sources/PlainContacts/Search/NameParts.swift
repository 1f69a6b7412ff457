/// The name parts of a person that naming, searching and sorting look at.
///
/// A plain value copied out of a person record, so that the name algorithms
/// (``CompositeName``, ``NameSearch``, ``SortKey``, ``NameHash``) stay pure functions.
///
/// ```swift
/// let parts = NameParts(firstName: "Katie", lastName: "Bell")
/// CompositeName.make(parts, format: .firstNameFirst)  // "Katie Bell"
/// ```
struct NameParts: Sendable, Hashable {
    /// The name prefix, such as "Dr.".
    var prefix: String?
    /// The first (given) name.
    var firstName: String?
    /// The middle name.
    var middleName: String?
    /// The last (family) name.
    var lastName: String?
    /// The name suffix, such as "Jr.".
    var suffix: String?
    /// The nickname.
    var nickname: String?
    /// How the first name is pronounced, for example in kana.
    var firstNamePhonetic: String?
    /// How the middle name is pronounced.
    var middleNamePhonetic: String?
    /// How the last name is pronounced, for example in kana.
    var lastNamePhonetic: String?
    /// The company or organization name.
    var organization: String?
    /// Whether the record's kind is organization rather than person.
    var isOrganization: Bool

    /// Creates name parts; every part defaults to absent and the kind to person.
    init(
        prefix: String? = nil,
        firstName: String? = nil,
        middleName: String? = nil,
        lastName: String? = nil,
        suffix: String? = nil,
        nickname: String? = nil,
        firstNamePhonetic: String? = nil,
        middleNamePhonetic: String? = nil,
        lastNamePhonetic: String? = nil,
        organization: String? = nil,
        isOrganization: Bool = false
    ) {
        self.prefix = prefix
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.suffix = suffix
        self.nickname = nickname
        self.firstNamePhonetic = firstNamePhonetic
        self.middleNamePhonetic = middleNamePhonetic
        self.lastNamePhonetic = lastNamePhonetic
        self.organization = organization
        self.isOrganization = isOrganization
    }
}
