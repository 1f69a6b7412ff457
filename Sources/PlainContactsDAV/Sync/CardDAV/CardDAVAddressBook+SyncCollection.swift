import Foundation
import PlainContacts

extension CardDAVAddressBook {
    /// The most answers followed for one `changes(since:)` when the server truncates each
    /// (`507` on the collection): enough for millions of changes, finite if a server loops.
    static let maximumSyncRounds = 1_000

    /// The statuses of a `sync-collection` report that mean the token is no longer valid
    /// (RFC 6578 section 3.2, `valid-sync-token`, and what servers answer in practice).
    static let staleTokenStatuses: Set<Int> = [400, 403, 409, 412]

    /// The cards changed and removed since `token` (RFC 6578 `sync-collection`, `sync-level` 1,
    /// `getetag`), following truncated answers, or `nil` when the server refuses the token.
    ///
    /// - Throws: `SyncError.Code.authenticationFailed` (`401`),
    ///   `SyncError.Code.serverUnavailable` or `SyncError.Code.malformedResponse`.
    package func changes(since token: String, includingCards: Bool) throws -> RemoteChanges? {
        var changed: [String: String] = [:]
        var removed: Set<String> = []
        var cards: [String: Data] = [:]
        var token = token
        for _ in 0..<Self.maximumSyncRounds {
            guard let answer = try syncCollection(token, includingCards: includingCards) else { return nil }
            var truncated = false
            for response in answer.responses {
                let (href, isCollection) = try member(response)
                if isCollection {
                    truncated = truncated || response.status == 507
                } else if response.status == 404 {
                    changed[href] = nil
                    cards[href] = nil
                    removed.insert(href)
                } else if response.property(.dav("resourcetype"))?.child(.dav("collection")) == nil {
                    changed[href] = try etag(of: response, href: href)
                    cards[href] = response.property(.cardDAV("address-data")).map { Data($0.text.utf8) }
                    removed.remove(href)
                }
            }
            guard let next = answer.syncToken else {
                throw SyncError(.malformedResponse, "the sync-collection answer has no sync-token", path: url)
            }
            token = next
            if !truncated {
                let versions = changed.map { RemoteCardVersion(href: $0.key, etag: $0.value) }.sorted { $0.href < $1.href }
                var changes = RemoteChanges(changed: versions, removed: removed.sorted(), syncToken: token)
                changes.cards = cards
                return changes
            }
        }
        throw SyncError(.malformedResponse, "the server truncated more than \(Self.maximumSyncRounds) sync answers in a row", path: url)
    }

    /// One `sync-collection` report, or `nil` when the token is refused.
    func syncCollection(_ token: String, includingCards: Bool = false) throws -> WebDAVMultistatus? {
        let body = WebDAVRequestBody.document(root: "d:sync-collection") { xml in
            xml.element("d:sync-token", text: token)
            xml.element("d:sync-level", text: "1")
            WebDAVRequestBody.prop(includingCards ? [.dav("getetag"), .cardDAV("address-data")] : [.dav("getetag")], in: &xml)
        }
        let request = webDAVRequest("REPORT", collectionURL, depth: "0", body: body)
        let response = try client.send(request, handling: Self.staleTokenStatuses)
        if Self.staleTokenStatuses.contains(response.status) { return nil }
        guard response.status == 207 else { throw unexpectedStatus(response) }
        return try WebDAVMultistatus.parse(response.body, url: HTTPClient.describe(response.url))
    }
}
