import PlainContactsSystem
/// A postal address, the value of one entry of a person's addresses.
///
/// The AddressBook equivalent is the dictionary stored in `kABPersonAddressProperty`, with the
/// keys `kABPersonAddressStreetKey`, `…CityKey`, `…StateKey`, `…ZIPKey`, `…CountryKey` and
/// `…CountryCodeKey`. The post office box and the extended address (apartment, suite) have no
/// AddressBook key; they are the first two fields of a vCard `ADR` and are kept apart so that
/// an address goes back to a card as it came.
///
/// ```swift
/// let home = PostalAddress(street: "1234 Laurel Street", city: "Atlanta", state: "GA",
///                          zip: "30303", country: "USA", countryCode: "us")
/// ```
public struct PostalAddress: Sendable, Hashable {
    /// The post office box, such as `"PO Box 101"`.
    public var poBox: String?
    /// The extended address: apartment, suite or building, such as `"Suite 300"`.
    public var extendedAddress: String?
    /// Street lines, separated by newlines.
    public var street: String?
    /// City or town.
    public var city: String?
    /// State, province or region.
    public var state: String?
    /// Postal code.
    public var zip: String?
    /// Country name.
    public var country: String?
    /// ISO 3166 country code, lowercase as AddressBook wrote it.
    public var countryCode: String?
    /// Keys found in the file that this version does not know; kept on rewrite.
    var unknownFields: [String: JSONValue] = [:]

    /// Creates an address; absent parts are `nil`.
    public init(
        poBox: String? = nil, extendedAddress: String? = nil,
        street: String? = nil, city: String? = nil, state: String? = nil, zip: String? = nil,
        country: String? = nil, countryCode: String? = nil
    ) {
        self.poBox = poBox
        self.extendedAddress = extendedAddress
        self.street = street
        self.city = city
        self.state = state
        self.zip = zip
        self.country = country
        self.countryCode = countryCode
    }

    /// Whether every part is absent or empty.
    public var isEmpty: Bool {
        [poBox, extendedAddress, street, city, state, zip, country, countryCode].allSatisfy { ($0 ?? "").isEmpty }
    }
}

/// An instant-messaging account, the value of one entry of a person's instant messages.
///
/// The AddressBook equivalent is the dictionary stored in `kABPersonInstantMessageProperty`
/// with `kABPersonInstantMessageServiceKey` and `kABPersonInstantMessageUsernameKey`.
public struct InstantMessage: Sendable, Hashable {
    /// The service, such as `"Skype"`, `"Jabber"` or `"Matrix"`.
    public var service: String?
    /// The user name on that service.
    public var username: String?
    /// Keys found in the file that this version does not know; kept on rewrite.
    var unknownFields: [String: JSONValue] = [:]

    /// Creates an account.
    public init(service: String? = nil, username: String? = nil) {
        self.service = service
        self.username = username
    }
}

/// A social-network profile, the value of one entry of a person's social profiles.
///
/// The AddressBook equivalent is the dictionary stored in `kABPersonSocialProfileProperty` with
/// `kABPersonSocialProfileURLKey`, `…ServiceKey`, `…UsernameKey` and `…UserIdentifierKey`.
public struct SocialProfile: Sendable, Hashable {
    /// The profile's address.
    public var url: String?
    /// The network, such as `"Mastodon"` or `"LinkedIn"`.
    public var service: String?
    /// The user name on that network.
    public var username: String?
    /// The network's own identifier of the user.
    public var identifier: String?
    /// Keys found in the file that this version does not know; kept on rewrite.
    var unknownFields: [String: JSONValue] = [:]

    /// Creates a profile.
    public init(
        url: String? = nil, service: String? = nil, username: String? = nil, identifier: String? = nil
    ) {
        self.url = url
        self.service = service
        self.username = username
        self.identifier = identifier
    }
}
