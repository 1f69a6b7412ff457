#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET` and `HEAD` of the collections: a short HTML page, for a person who opens the
/// server's address in a browser (RFC 4918 section 9.4 leaves what a collection's `GET` gives
/// to the server).
///
/// The address book lists its cards, each a link to the card; the principal lists the books
/// the user may use; the root and `/.well-known/` link onwards. Nothing is shown that a
/// `PROPFIND` of the same resource would not show.
extension CardDAVService {
    /// The page of a collection other than an address book.
    ///
    /// - Parameter books: the books the user may use, for the principal's page.
    static func page(of resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, books: [Target]) -> HTTPServerResponse {
        switch resource {
        case .principal:
            var links: [(String, String)] = []
            for target in books {
                var bookSpace = space
                bookSpace.book = target.book.name
                links.append((bookSpace.collectionHref, "address book \(target.book.name.rawValue)"))
            }
            return page(title: "Address books", links: links)
        case .wellKnownFolder:
            return page(title: "Well-known locations", links: [(space.href(of: .wellKnown), "carddav")])
        default:
            return page(title: "CardDAV server", links: [(space.principalHref, "address books")])
        }
    }

    /// The page of an address book: each card's name, a link to the card.
    ///
    /// - Throws: the errors of listing the book.
    static func page(of collection: CardDAVCollection, space: CardDAVURLSpace) throws -> HTTPServerResponse {
        page(of: try collection.listing(), space: space)
    }

    /// The page of an address book as a listing holds it.
    static func page(of listing: CardDAVCollection.Listing, space: CardDAVURLSpace) -> HTTPServerResponse {
        let names = listing.entries.keys.sorted()
        return page(title: "Address book \(space.book.rawValue): \(names.count) cards", links: names.map { (space.cardHref($0), $0) })
    }

    /// The length of a collection's page other than an address book's, when `asking` wants it.
    static func pageLength(
        of resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, books: [Target], asking: CardDAVPropertyRequest
    ) -> Int? {
        asking.wantsContentLength ? page(of: resource, space: space, books: books).body.count : nil
    }

    /// A page with a title and a list of links.
    private static func page(title: String, links: [(href: String, text: String)]) -> HTTPServerResponse {
        var html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + WebDAVXMLWriter.escaped(title)
            + "</title></head>\n<body><h1>" + WebDAVXMLWriter.escaped(title) + "</h1>\n<ul>\n"
        for link in links {
            html += "<li><a href=\"" + WebDAVXMLWriter.escaped(link.href) + "\">" + WebDAVXMLWriter.escaped(link.text) + "</a></li>\n"
        }
        html += "</ul></body></html>\n"
        return HTTPServerResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(html.utf8))
    }
}
