import PlainContacts

/// The WebDAV and CardDAV properties the server knows, with their names as written.
///
/// ```swift
/// CardDAVProperty(name: .dav("getetag"))   // .getETag
/// CardDAVProperty.getETag.element          // "d:getetag"
/// ```
enum CardDAVProperty: CaseIterable, Hashable, Sendable {
    /// WebDAV's resource properties (RFC 4918 section 15).
    case resourceType, displayName, getETag, getContentType, getContentLength, getLastModified
    /// The collection's change markers (CalendarServer's `getctag`, RFC 6578's `sync-token`), and
    /// what the collection supports (RFC 3253, RFC 3744, RFC 6352).
    case getCTag, syncToken, supportedReportSet, currentUserPrivilegeSet, supportedAddressData, maxResourceSize
    /// Where the user's principal and address books are (RFC 5397, RFC 3744, RFC 6352), and a
    /// card's text.
    case currentUserPrincipal, principalURL, addressbookHomeSet, principalCollectionSet, owner, addressData

    /// The property's qualified name, with the writer's prefix (`d:getetag`).
    var element: String {
        switch self {
        case .resourceType: "d:resourcetype"
        case .displayName: "d:displayname"
        case .getETag: "d:getetag"
        case .getContentType: "d:getcontenttype"
        case .getContentLength: "d:getcontentlength"
        case .getLastModified: "d:getlastmodified"
        case .getCTag: "cs:getctag"
        case .syncToken: "d:sync-token"
        case .supportedReportSet: "d:supported-report-set"
        case .currentUserPrivilegeSet: "d:current-user-privilege-set"
        case .supportedAddressData: "card:supported-address-data"
        case .maxResourceSize: "card:max-resource-size"
        case .currentUserPrincipal: "d:current-user-principal"
        case .principalURL: "d:principal-URL"
        case .addressbookHomeSet: "card:addressbook-home-set"
        case .principalCollectionSet: "d:principal-collection-set"
        case .owner: "d:owner"
        case .addressData: "card:address-data"
        }
    }

    /// The property's namespace-qualified name.
    var name: WebDAVElement.Name {
        let parts = element.split(separator: ":", maxSplits: 1)
        let local = String(parts[1])
        switch parts[0] {
        case "card": return .cardDAV(local)
        case "cs": return .calendarServer(local)
        default: return .dav(local)
        }
    }

    /// The known property of a name, or `nil`.
    init?(name: WebDAVElement.Name) {
        guard let known = Self.byName[name] else { return nil }
        self = known
    }

    /// The known properties by name.
    private static let byName: [WebDAVElement.Name: CardDAVProperty] = {
        var table: [WebDAVElement.Name: CardDAVProperty] = [:]
        for property in allCases { table[property.name] = property }
        return table
    }()

    /// The properties each kind of resource has, in the order `allprop` and `propname` give them.
    /// `address-data` is a card's only when asked for by name.
    static func defined(on resource: CardDAVURLSpace.Resource) -> [CardDAVProperty] {
        switch resource {
        case .root, .wellKnown: rootProperties
        case .wellKnownFolder: [.resourceType, .getContentLength]
        case .principal: principalProperties
        case .collection: collectionProperties
        case .card: cardProperties
        // The calendar is answered by GET and HEAD only (CardDAVService+BirthdayCalendar).
        case .birthdayCalendar: []
        }
    }

    /// The root's properties.
    private static let rootProperties: [CardDAVProperty] = [
        .resourceType, .displayName, .getContentLength, .currentUserPrincipal, .currentUserPrivilegeSet,
        .principalCollectionSet,
    ]
    /// The principal's properties.
    private static let principalProperties: [CardDAVProperty] = [
        .resourceType, .displayName, .getContentLength, .currentUserPrincipal, .principalURL, .addressbookHomeSet,
        .currentUserPrivilegeSet, .principalCollectionSet, .owner,
    ]
    /// The address book's properties.
    private static let collectionProperties: [CardDAVProperty] = [
        .resourceType, .displayName, .getContentLength, .getCTag, .syncToken, .supportedReportSet,
        .currentUserPrivilegeSet, .supportedAddressData, .maxResourceSize, .currentUserPrincipal, .owner,
    ]
    /// A card's properties.
    private static let cardProperties: [CardDAVProperty] = [
        .resourceType, .getETag, .getContentType, .getContentLength, .getLastModified, .currentUserPrivilegeSet,
        .currentUserPrincipal, .owner,
    ]
}

/// Which properties a request asks for: `allprop` (with any `include`d ones), `propname`, or a
/// list of names, each known or not.
enum CardDAVPropertyRequest: Hashable, Sendable {
    /// Every property of the resource, and these besides.
    case all(including: [WebDAVElement.Name])
    /// The names of the resource's properties.
    case names
    /// These properties.
    case named([WebDAVElement.Name])

    /// What a `propfind` element, or the body of a report (which holds the same children),
    /// asks for; `allprop` when it says nothing.
    init(_ element: WebDAVElement?) {
        guard let element else {
            self = .all(including: [])
            return
        }
        if let prop = element.child(.dav("prop")) {
            self = .named(prop.children.map(\.name))
        } else if element.child(.dav("propname")) != nil {
            self = .names
        } else {
            self = .all(including: element.child(.dav("include"))?.children.map(\.name) ?? [])
        }
    }

    /// The card properties an `address-data` element names (`<card:prop name="EMAIL"/>`), as
    /// it spells them (a card's are matched case-insensitively); `nil` when it names none (or
    /// holds `card:allprop`): the whole card is given.
    static func addressDataProperties(in element: WebDAVElement?) -> Set<String>? {
        guard let addressData = element?.child(.dav("prop"))?.child(CardDAVProperty.addressData.name),
            addressData.child(.cardDAV("allprop")) == nil
        else { return nil }
        let names = addressData.children.filter { $0.name == .cardDAV("prop") }.compactMap { $0.attributes["name"] }
        return names.isEmpty ? nil : Set(names)
    }

    /// Whether the request asks for a card's `address-data`.
    var wantsAddressData: Bool {
        switch self {
        case .all(let including): including.contains(CardDAVProperty.addressData.name)
        case .names: false
        case .named(let names): names.contains(CardDAVProperty.addressData.name)
        }
    }

    /// Whether the request asks for `getcontentlength`, which only a made card tells (see
    /// ``CardDAVEntry/length``), and a collection only once its page is made.
    var wantsContentLength: Bool {
        switch self {
        case .all: true
        case .names: false
        case .named(let names): names.contains(CardDAVProperty.getContentLength.name)
        }
    }
}
