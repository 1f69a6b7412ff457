import Foundation
import PlainContacts

/// Turns the hrefs a server writes into the one canonical form a sync compares: the absolute
/// path, each segment decoded once and percent-encoded again one way.
///
/// A server may write a card's href relative (`katie.vcf`), as an absolute path
/// (`/user/contacts/katie.vcf`) or as a full URL, and may encode `@` as `%40` in one answer and
/// not in the next; all of these give the same canonical path. An href on another host is
/// refused: a server never names another server's cards.
///
/// ```swift
/// let collection = URL(string: "https://dav.example.com/user/contacts/")!
/// try CardDAVHref.canonicalPath("a%40b.vcf", in: collection)   // "/user/contacts/a@b.vcf"
/// ```
enum CardDAVHref {
    /// The characters a path segment keeps as they are (RFC 3986 `pchar` without `%`); every
    /// other byte of the UTF-8 segment is percent-encoded in upper case.
    static let segmentCharacters: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")
        return set
    }()

    /// The canonical absolute path of `href`, resolved against the collection's URL.
    ///
    /// - Throws: `SyncError.Code.malformedResponse` naming the collection when the href is
    ///   not a URL, or names another scheme, host or port.
    static func canonicalPath(_ href: String, in collection: URL) throws -> String {
        let trimmed = href.trimmingWhitespaceAndNewlines
        guard let resolved = URL(string: trimmed, relativeTo: collection)?.absoluteURL else {
            throw SyncError(.malformedResponse, "an href of the answer is not a URL", path: HTTPClient.describe(collection))
        }
        guard HTTPClient.origin(of: resolved) == HTTPClient.origin(of: collection) else {
            throw SyncError(.malformedResponse, "an href of the answer names another server", path: HTTPClient.describe(collection))
        }
        let path = URLComponents(url: resolved, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? resolved.path
        return try canonical(path: path.isEmpty ? "/" : path, collection: collection)
    }

    /// The canonical form of an absolute, percent-encoded path.
    static func canonical(path: String, collection: URL) throws -> String {
        let segments = try path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard let decoded = String(segment).removingPercentEncoding else {
                throw SyncError(.malformedResponse, "an href of the answer has a broken percent-encoding",
                    path: HTTPClient.describe(collection))
            }
            return encode(segment: decoded)
        }
        return segments.joined(separator: "/")
    }

    /// A path segment percent-encoded the canonical way.
    static func encode(segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? segment
    }

    /// The full URL of a canonical path on the collection's server.
    static func url(ofPath path: String, in collection: URL) -> URL? {
        guard var components = URLComponents(url: collection, resolvingAgainstBaseURL: true) else { return nil }
        components.percentEncodedPath = path
        components.percentEncodedQuery = nil
        components.fragment = nil
        return components.url
    }
}
