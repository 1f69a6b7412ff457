#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PlainContacts

/// Writing resources' properties into a multistatus.
extension CardDAVService {
    /// What a resource's properties are written from.
    struct PropertyContext {
        /// The request's URL space.
        var space: CardDAVURLSpace
        /// The collection's token, for the collection's `getctag` and `sync-token`.
        var token: CardDAVSyncToken?
        /// The card, for a card.
        var entry: CardDAVEntry?
        /// The card's bytes, when `address-data` is asked for.
        var data: Data?
        /// The only card properties `address-data` gives, when the request names some.
        var addressDataProperties: Set<String>? = nil
        /// The book of an address book or a card, and what the user may do with it.
        var target: Target? = nil
        /// The length of the page a `GET` of a collection gives, which its `getcontentlength`
        /// tells (RFC 4918 section 15.4); `nil` for a card, or when the length is not asked for.
        var pageLength: Int? = nil
    }

    /// Writes one `response` element: the resource's href, the properties found with status 200
    /// and the others with status 404.
    static func writeResponse(
        _ resource: CardDAVURLSpace.Resource, asking request: CardDAVPropertyRequest, context: PropertyContext,
        into xml: inout WebDAVXMLWriter
    ) {
        xml.open("d:response")
        xml.href(context.space.href(of: resource))
        let wanted: [WebDAVElement.Name]
        switch request {
        case .names:
            xml.open("d:propstat")
            xml.open("d:prop")
            for property in CardDAVProperty.defined(on: resource) { xml.empty(property.element) }
            xml.close("d:prop")
            xml.status(200)
            xml.close("d:propstat")
            xml.close("d:response")
            return
        case .all(let including):
            wanted = CardDAVProperty.defined(on: resource).map(\.name) + including
        case .named(let names):
            wanted = names
        }
        var found: [CardDAVProperty] = []
        var missing: [WebDAVElement.Name] = []
        for name in wanted {
            if let property = CardDAVProperty(name: name), hasValue(property, of: resource, context: context) {
                if !found.contains(property) { found.append(property) }
            } else if !missing.contains(name) {
                missing.append(name)
            }
        }
        if !found.isEmpty {
            xml.open("d:propstat")
            xml.open("d:prop")
            for property in found { writeValue(property, of: resource, context: context, into: &xml) }
            xml.close("d:prop")
            xml.status(200)
            xml.close("d:propstat")
        }
        if !missing.isEmpty {
            xml.open("d:propstat")
            xml.open("d:prop")
            for name in missing { xml.empty(name) }
            xml.close("d:prop")
            xml.status(404)
            xml.close("d:propstat")
        }
        xml.close("d:response")
    }

    /// Whether a resource has a property.
    static func hasValue(_ property: CardDAVProperty, of resource: CardDAVURLSpace.Resource, context: PropertyContext) -> Bool {
        switch property {
        case .addressData: context.data != nil
        case .getLastModified: context.entry.map { $0.modified > 0 } ?? false
        default: CardDAVProperty.defined(on: resource).contains(property)
        }
    }

    /// Writes a property's element with its value.
    static func writeValue(
        _ property: CardDAVProperty, of resource: CardDAVURLSpace.Resource, context: PropertyContext,
        into xml: inout WebDAVXMLWriter
    ) {
        let space = context.space
        switch property {
        case .resourceType:
            xml.open(property.element)
            switch resource {
            case .root, .wellKnown, .wellKnownFolder: xml.empty("d:collection")
            case .principal:
                xml.empty("d:collection")
                xml.empty("d:principal")
            case .collection:
                xml.empty("d:collection")
                xml.empty("card:addressbook")
            case .card, .birthdayCalendar: break
            }
            xml.close(property.element)
        case .displayName:
            switch resource {
            case .principal: xml.element(property.element, text: space.principal)
            case .collection: xml.element(property.element, text: context.target?.book.displayName ?? CardDAVService.collectionDisplayName)
            default: xml.element(property.element, text: "PlainContacts")
            }
        case .getETag:
            xml.element(property.element, text: context.entry?.quotedETag ?? "")
        case .getContentType:
            xml.element(property.element, text: CardDAVService.cardContentType)
        case .getContentLength:
            xml.element(property.element, text: String(context.pageLength ?? context.entry?.length ?? 0))
        case .getLastModified:
            xml.element(property.element, text: httpDate(nanoseconds: context.entry?.modified ?? 0))
        case .getCTag:
            xml.element(property.element, text: context.token?.ctag ?? "")
        case .syncToken:
            xml.element(property.element, text: context.token?.uri ?? "")
        case .supportedReportSet:
            xml.open(property.element)
            for report in ["card:addressbook-multiget", "card:addressbook-query", "d:sync-collection"] {
                xml.append("<d:supported-report><d:report><\(report)/></d:report></d:supported-report>")
            }
            xml.close(property.element)
        case .currentUserPrivilegeSet:
            xml.open(property.element)
            var privileges = ["d:read", "d:read-current-user-privilege-set"]
            // A book the user may only read says so, and clients show it read-only.
            if resource == .collection || resource.isCard, context.target?.access != .read {
                privileges += ["d:write", "d:write-content", "d:bind", "d:unbind"]
            }
            for privilege in privileges { xml.append("<d:privilege><\(privilege)/></d:privilege>") }
            xml.close(property.element)
        case .supportedAddressData:
            xml.open(property.element)
            for version in CardDAVAddressDataType.versions {
                xml.append(
                    "<card:address-data-type content-type=\"\(CardDAVAddressDataType.mediaType)\" version=\"\(version.rawValue)\"/>")
            }
            xml.close(property.element)
        case .maxResourceSize:
            xml.element(property.element, text: String(CardDAVService.maximumCardSize))
        case .currentUserPrincipal, .principalURL, .addressbookHomeSet, .owner:
            xml.open(property.element)
            xml.href(space.principalHref)
            xml.close(property.element)
        case .principalCollectionSet:
            xml.open(property.element)
            xml.href(space.rootHref)
            xml.close(property.element)
        case .addressData:
            let data = context.data ?? Data()
            xml.element(property.element, bytes: context.addressDataProperties.map { cardData(data, keeping: $0) } ?? data)
        }
    }

    /// A card with only the named properties (and its version), as `address-data` gives it when
    /// the request names properties (RFC 6352 section 10.4.2).
    static func cardData(_ data: Data, keeping names: Set<String>) -> Data {
        VCard.firstCard(in: data, keepingPropertiesNamed: names) ?? data
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110's IMF-fixdate) of a time in
    /// nanoseconds since 1970.
    static func httpDate(nanoseconds: Int64) -> String {
        HTTPDate.format(time_t(nanoseconds / 1_000_000_000))
    }
}

extension CardDAVURLSpace.Resource {
    /// Whether the resource is a card.
    var isCard: Bool {
        if case .card = self { return true }
        return false
    }
}
