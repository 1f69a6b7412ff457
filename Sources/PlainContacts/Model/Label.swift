/// The label of one value of a multi-value property: a predefined word or any custom text.
///
/// Labels are stored and shown as plain words (`mobile`, `home`, `anniversary`), never as
/// AddressBook's `_$!<Mobile>!$_` form; each predefined label has a display name.
///
/// The AddressBook equivalents are the `kAB…Label` constants (`kABHomeLabel`,
/// `kABPersonPhoneMobileLabel`…), and ``localizedName`` stands for
/// `ABAddressBookCopyLocalizedLabel`.
///
/// ```swift
/// phones.add("555-0100", label: .mobile)
/// phones.add("555-0199", label: Label("Boat"))
/// print(Label.homeFax.localizedName)   // "home fax"
/// ```
public struct Label: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The stored word or custom text.
    public var rawValue: String

    /// Creates a label from its stored word or custom text.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a label from its stored word or custom text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    // Generic labels.
    /// `kABHomeLabel`.
    public static let home = Label("home")
    /// `kABWorkLabel`.
    public static let work = Label("work")
    /// `kABOtherLabel`.
    public static let other = Label("other")

    // Phone labels.
    /// `kABPersonPhoneMobileLabel`.
    public static let mobile = Label("mobile")
    /// `kABPersonPhoneIPhoneLabel`.
    public static let iPhone = Label("iPhone")
    /// `kABPersonPhoneMainLabel`.
    public static let main = Label("main")
    /// `kABPersonPhoneHomeFAXLabel`.
    public static let homeFax = Label("homeFax")
    /// `kABPersonPhoneWorkFAXLabel`.
    public static let workFax = Label("workFax")
    /// `kABPersonPhoneOtherFAXLabel`.
    public static let otherFax = Label("otherFax")
    /// `kABPersonPhonePagerLabel`.
    public static let pager = Label("pager")

    // URL and date labels.
    /// `kABPersonHomePageLabel`.
    public static let homePage = Label("homePage")
    /// `kABPersonAnniversaryLabel`.
    public static let anniversary = Label("anniversary")

    // Related-name labels.
    /// `kABPersonFatherLabel`.
    public static let father = Label("father")
    /// `kABPersonMotherLabel`.
    public static let mother = Label("mother")
    /// `kABPersonParentLabel`.
    public static let parent = Label("parent")
    /// `kABPersonBrotherLabel`.
    public static let brother = Label("brother")
    /// `kABPersonSisterLabel`.
    public static let sister = Label("sister")
    /// `kABPersonChildLabel`.
    public static let child = Label("child")
    /// `kABPersonFriendLabel`.
    public static let friend = Label("friend")
    /// `kABPersonSpouseLabel`.
    public static let spouse = Label("spouse")
    /// `kABPersonPartnerLabel`.
    public static let partner = Label("partner")
    /// `kABPersonAssistantLabel`.
    public static let assistant = Label("assistant")
    /// `kABPersonManagerLabel`.
    public static let manager = Label("manager")

    /// Every predefined label, in the order above.
    public static let predefined: [Label] = [
        .home, .work, .other, .mobile, .iPhone, .main, .homeFax, .workFax, .otherFax, .pager,
        .homePage, .anniversary, .father, .mother, .parent, .brother, .sister, .child, .friend,
        .spouse, .partner, .assistant, .manager,
    ]

    /// Whether this is one of the predefined labels rather than custom text.
    public var isPredefined: Bool { Label.displayNames[rawValue] != nil }

    /// The name to show a person: an English display name for a predefined label, the text
    /// itself for a custom one.
    ///
    /// The AddressBook equivalent is `ABAddressBookCopyLocalizedLabel`.
    public var localizedName: String { Label.displayNames[rawValue] ?? rawValue }

    private static let displayNames: [String: String] = [
        "home": "home", "work": "work", "other": "other",
        "mobile": "mobile", "iPhone": "iPhone", "main": "main", "homeFax": "home fax",
        "workFax": "work fax", "otherFax": "other fax", "pager": "pager",
        "homePage": "home page", "anniversary": "anniversary",
        "father": "father", "mother": "mother", "parent": "parent", "brother": "brother",
        "sister": "sister", "child": "child", "friend": "friend", "spouse": "spouse",
        "partner": "partner", "assistant": "assistant", "manager": "manager",
    ]
}
