import Foundation
import PlainContacts

extension CardDAVAddressBook {
    /// How many cards one `addressbook-multiget` asks for: large batches make few round trips,
    /// and this many cards of a few kilobytes each keep an answer to a few megabytes.
    static let multigetBatchSize = 250

    /// The cards at these hrefs, with their ETags and bytes (`addressbook-multiget` reports of
    /// ``multigetBatchSize`` hrefs); a card removed meanwhile (`404`) is left out.
    ///
    /// - Throws: `SyncError.Code.authenticationFailed`, `SyncError.Code.serverUnavailable`
    ///   or `SyncError.Code.malformedResponse` (also for a card without data or ETag).
    package func fetchCards(_ hrefs: [String]) throws -> [RemoteCard] {
        var cards: [RemoteCard] = []
        var start = 0
        while start < hrefs.count {
            let batch = Array(hrefs[start..<min(start + Self.multigetBatchSize, hrefs.count)])
            cards += try multiget(batch)
            start += batch.count
        }
        return cards
    }

    /// One `addressbook-multiget` report.
    func multiget(_ hrefs: [String]) throws -> [RemoteCard] {
        let paths = try hrefs.map { try CardDAVHref.canonicalPath($0, in: collectionURL) }
        let body = WebDAVRequestBody.document(root: "card:addressbook-multiget") { xml in
            WebDAVRequestBody.prop([.dav("getetag"), .cardDAV("address-data")], in: &xml)
            for path in paths { xml.element("d:href", text: path) }
        }
        let answer = try multistatus("REPORT", collectionURL, depth: "0", body: body)
        var cards: [RemoteCard] = []
        for response in answer.responses {
            let (href, isCollection) = try member(response)
            guard !isCollection, response.status.map({ (200..<300).contains($0) }) ?? true else { continue }
            if response.properties.isEmpty && response.failedProperties.values.contains(404) { continue }
            guard let data = response.property(.cardDAV("address-data"))?.text else {
                throw SyncError(.malformedResponse, "the server gave no card data for \(href)", path: url)
            }
            cards.append(RemoteCard(href: href, etag: try etag(of: response, href: href), data: Data(data.utf8)))
        }
        return cards
    }
}
