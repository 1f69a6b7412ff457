import Foundation
import PlainContacts

extension CardDAVAddressBook {
    /// The collection's `getctag` and `sync-token` (a `Depth: 0` `PROPFIND`). When the server
    /// lists its reports (`supported-report-set`) without `sync-collection`, the token is
    /// dropped, so that a sync compares ETags instead.
    ///
    /// - Throws: `SyncError.Code.authenticationFailed`, `SyncError.Code.serverUnavailable`,
    ///   `SyncError.Code.notFound` when there is no collection at the URL, or
    ///   `SyncError.Code.malformedResponse`.
    package func collectionState() throws -> RemoteCollectionState {
        let answer = try multistatus(
            "PROPFIND", collectionURL, depth: "0",
            body: WebDAVRequestBody.propfind([.calendarServer("getctag"), .dav("sync-token"), .dav("supported-report-set")]))
        guard let collection = try answer.responses.first(where: { try member($0).isCollection }) else {
            throw SyncError(.malformedResponse, "the answer does not describe the collection", path: url)
        }
        let ctag = collection.property(.calendarServer("getctag"))?.text.trimmingWhitespaceAndNewlines
        var token = collection.property(.dav("sync-token"))?.text.trimmingWhitespaceAndNewlines
        if let reports = collection.property(.dav("supported-report-set")), !Self.lists(.dav("sync-collection"), reports) {
            token = nil
        }
        return RemoteCollectionState(ctag: ctag.flatMap { $0.isEmpty ? nil : $0 }, syncToken: token.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Every card of the collection with its ETag (a `Depth: 1` `PROPFIND`), leaving out the
    /// collection itself, sub-collections and members reported missing.
    ///
    /// - Throws: as ``collectionState()``; `SyncError.Code.malformedResponse` also when a
    ///   card has no ETag.
    package func listCards() throws -> [RemoteCardVersion] {
        let answer = try multistatus(
            "PROPFIND", collectionURL, depth: "1",
            body: WebDAVRequestBody.propfind([.dav("resourcetype"), .dav("getetag"), .dav("getcontenttype")]))
        var cards: [RemoteCardVersion] = []
        for response in answer.responses {
            let (href, isCollection) = try member(response)
            let isSubCollection = response.property(.dav("resourcetype"))?.child(.dav("collection")) != nil
            guard !isCollection, !isSubCollection, response.status.map({ (200..<300).contains($0) }) ?? true else { continue }
            cards.append(RemoteCardVersion(href: href, etag: try etag(of: response, href: href)))
        }
        return cards
    }

    /// One card's ETag, read after a `PUT` whose answer did not say it.
    ///
    /// - Throws: as ``listCards()``.
    func readETag(of href: String) throws -> String {
        let answer = try multistatus(
            "PROPFIND", try url(ofHref: href), depth: "0", body: WebDAVRequestBody.propfind([.dav("getetag")]))
        guard let response = try answer.responses.first(where: { try member($0).href == href }) ?? answer.responses.first
        else {
            throw SyncError(.malformedResponse, "the server gave no ETag for \(href)", path: url)
        }
        return try etag(of: response, href: href)
    }

    /// Whether a `supported-report-set` lists a report.
    static func lists(_ report: WebDAVElement.Name, _ reports: WebDAVElement) -> Bool {
        reports.children.contains { supported in
            supported.child(.dav("report"))?.children.contains { $0.name == report } ?? false
        }
    }
}
