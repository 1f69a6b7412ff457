#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The server's URL space for one request: what a path names, and the hrefs its answers write.
///
/// ```
/// /.well-known/               a collection holding `carddav`, readable without credentials
/// /.well-known/carddav        redirects to the root, the context path (RFC 6764 section 5)
/// /                           the root: names the current user's principal
/// /<user>/                    the user's principal, which is also the address-book home
/// /<user>/<book>/             an address book: `contacts` is the store the server runs in
/// /<user>/<book>/<name>       a card: a person or a group of the book's store
/// /<user>/birthdays.ics       the birthdays and anniversaries as an iCalendar calendar
/// ```
///
/// `<user>` is the authenticated user, or ``anonymousPrincipal`` when the server has no users.
/// A space is of one book (``book``): its address book and cards are those paths name, and
/// ``bookName(ofPath:)`` tells which book a request's path is in.
/// Behind a reverse proxy that serves the address book under a path prefix and says so with
/// `X-Script-Name` or `X-Forwarded-Prefix`, every href carries that prefix; a path that still
/// holds it (a proxy that does not strip it) is read without it.
///
/// Paths are percent-decoded exactly once, segment by segment, and matched against this layout;
/// they never reach the file system. A segment that decodes to `.` or `..`, holds a `/`
/// (`%2F`), a backslash, NUL or another control character, or bytes that are not valid UTF-8
/// (overlong forms included) is refused.
///
/// ```swift
/// let space = try CardDAVURLSpace(request: request, user: "alice")
/// try space.resource(ofPath: "/alice/contacts/d69c.vcf")   // .card("d69c.vcf")
/// space.cardHref("d69c.vcf")                                // "/dav/alice/contacts/d69c.vcf" behind /dav
/// ```
struct CardDAVURLSpace: Sendable, Hashable {
    /// What a path names.
    enum Resource: Hashable, Sendable {
        /// `/`: only says where the user's principal is.
        case root
        /// `/.well-known/carddav` (RFC 6764).
        case wellKnown
        /// `/.well-known/` itself, where RFC 8615 defines nothing: an empty collection, so that
        /// a client looking there finds a collection rather than nothing.
        case wellKnownFolder
        /// The user's principal and address-book home.
        case principal
        /// The address book.
        case collection
        /// A card of the address book, by its resource name (decoded).
        case card(String)
        /// The birthday calendar, beside the address book rather than in it, so that no
        /// listing or sync of the address book shows it as a card.
        case birthdayCalendar
    }

    /// Why a path names nothing the server serves.
    enum PathError: Error, Hashable, Sendable {
        /// The path cannot be read: broken percent-encoding, invalid UTF-8, a control character,
        /// a dot segment, an encoded slash or a backslash (400).
        case malformed
        /// The path is well formed but names nothing here (404).
        case notFound
    }

    /// The principal's path segment when the server has no users.
    static let anonymousPrincipal = "me"
    /// The birthday calendar's path segment, under the principal.
    static let birthdayCalendarSegment = "birthdays.ics"
    /// The longest resource name accepted, in UTF-8 bytes: what file systems allow for a name.
    static let maximumNameLength = 255

    /// The reverse proxy's prefix, percent-encoded, without a trailing slash; empty for none.
    let prefix: String
    /// The principal's segment, decoded.
    let principal: String
    /// The book whose address book and cards the space's paths and hrefs name.
    var book = ServedBookName.home

    /// The URL space of a request made by `user` (`nil` when the server has no users).
    ///
    /// - Throws: ``PathError/malformed`` when the request's prefix header is not a plain path.
    init(request: HTTPServerRequest, user: String?) throws(PathError) {
        let declared = request.header("X-Script-Name") ?? request.header("X-Forwarded-Prefix") ?? ""
        guard declared.isEmpty || declared.hasPrefix("/") else { throw .malformed }
        var segments: [String] = []
        for raw in declared.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            segments.append(try Self.decodedSegment(raw))
        }
        self.init(prefixSegments: segments, user: user)
    }

    /// A URL space with a prefix given as decoded segments.
    init(prefixSegments: [String] = [], user: String?) {
        prefix = prefixSegments.map { "/" + Self.encode($0) }.joined()
        prefixSegmentsDecoded = prefixSegments
        principal = user ?? Self.anonymousPrincipal
    }

    /// The prefix's segments, decoded.
    private let prefixSegmentsDecoded: [String]

    // MARK: Hrefs

    /// The root's href.
    var rootHref: String { prefix + "/" }
    /// The principal's href (also the address-book home).
    var principalHref: String { prefix + "/" + Self.encode(principal) + "/" }
    /// The address book's href.
    var collectionHref: String { principalHref + Self.encode(book.rawValue) + "/" }
    /// A card's href.
    func cardHref(_ name: String) -> String { collectionHref + Self.encode(name) }
    /// The birthday calendar's href.
    var birthdayCalendarHref: String { principalHref + Self.birthdayCalendarSegment }

    /// The href of a resource.
    func href(of resource: Resource) -> String {
        switch resource {
        case .root: rootHref
        case .wellKnown: prefix + "/.well-known/carddav"
        case .wellKnownFolder: prefix + "/.well-known/"
        case .principal: principalHref
        case .collection: collectionHref
        case .card(let name): cardHref(name)
        case .birthdayCalendar: birthdayCalendarHref
        }
    }

    // MARK: Paths

    /// What a percent-encoded absolute path names.
    ///
    /// - Throws: ``PathError/malformed`` for a path that cannot be read;
    ///   ``PathError/notFound`` for one that names nothing here.
    func resource(ofPath path: String) throws(PathError) -> Resource {
        guard path.hasPrefix("/") else { throw .malformed }
        var segments: [String] = []
        for raw in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            segments.append(try Self.decodedSegment(raw))
        }
        if !prefixSegmentsDecoded.isEmpty, segments.starts(with: prefixSegmentsDecoded) {
            segments.removeFirst(prefixSegmentsDecoded.count)
        }
        switch segments.count {
        case 0:
            return .root
        case 1 where segments[0] == principal:
            return .principal
        case 1 where segments == [".well-known"]:
            return .wellKnownFolder
        case 2 where segments == [".well-known", "carddav"]:
            return .wellKnown
        case 2 where segments[0] == principal && segments[1] == book.rawValue:
            return .collection
        case 2 where segments[0] == principal && segments[1] == Self.birthdayCalendarSegment:
            return .birthdayCalendar
        case 3 where segments[0] == principal && segments[1] == book.rawValue:
            guard segments[2].utf8.count <= Self.maximumNameLength else { throw .notFound }
            return .card(segments[2])
        default:
            throw .notFound
        }
    }

    /// The book a percent-encoded absolute path is in: the name of its segment after the
    /// principal's; `nil` for a path in no book, or one that cannot be read.
    ///
    /// ```swift
    /// space.bookName(ofPath: "/kim/family/d69c.vcf")   // family
    /// ```
    func bookName(ofPath path: String) -> ServedBookName? {
        guard path.hasPrefix("/") else { return nil }
        var segments: [String] = []
        for raw in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            guard let segment = try? Self.decodedSegment(raw) else { return nil }
            segments.append(segment)
        }
        if !prefixSegmentsDecoded.isEmpty, segments.starts(with: prefixSegmentsDecoded) {
            segments.removeFirst(prefixSegmentsDecoded.count)
        }
        guard segments.count >= 2, segments[0] == principal else { return nil }
        return try? ServedBookName(segments[1])
    }

    /// What an href of a request body names: an absolute path, or a full URL whose path is read
    /// (its host is not checked: a proxy may rewrite it), or a path relative to the address book.
    ///
    /// - Throws: What ``resource(ofPath:)`` throws.
    func resource(ofHref href: String) throws(PathError) -> Resource {
        let trimmed = href.trimmingWhitespaceAndNewlines
        if trimmed.hasPrefix("/") {
            return try resource(ofPath: Self.withoutQuery(trimmed))
        }
        if let schemeEnd = trimmed.range(of: "://") {
            let afterAuthority = trimmed[schemeEnd.upperBound...]
            guard let slash = afterAuthority.firstIndex(of: "/") else { return .root }
            return try resource(ofPath: Self.withoutQuery(String(afterAuthority[slash...])))
        }
        return try resource(ofPath: collectionHref + Self.withoutQuery(trimmed))
    }

    /// A path without its query or fragment.
    private static func withoutQuery(_ text: String) -> String {
        guard let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return text }
        return String(text[..<end])
    }

    // MARK: Segments

    /// One path segment decoded: percent-escapes read once, the result checked.
    ///
    /// - Throws: ``PathError/malformed`` as the type's description says.
    static func decodedSegment(_ raw: some Collection<UInt8>) throws(PathError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index != raw.endIndex {
            let byte = raw[index]
            index = raw.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard index != raw.endIndex, let high = HTTPSyntax.hexValue(raw[index]) else { throw .malformed }
            index = raw.index(after: index)
            guard index != raw.endIndex, let low = HTTPSyntax.hexValue(raw[index]) else { throw .malformed }
            index = raw.index(after: index)
            bytes.append(UInt8(high * 16 + low))
        }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) {
            throw .malformed
        }
        guard let text = String(validating: bytes, as: UTF8.self), text != ".", text != ".." else { throw .malformed }
        return text
    }

    /// A segment percent-encoded for an href: unreserved characters and the sub-delimiters
    /// `@`, `:` and `+` as they are, every other byte as `%XX`.
    static func encode(_ segment: String) -> String {
        var needsEncoding = false
        for byte in segment.utf8 where !isPlainByte(byte) {
            needsEncoding = true
            break
        }
        guard needsEncoding else { return segment }
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segment.utf8.count * 3)
        for byte in segment.utf8 {
            if isPlainByte(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a byte stands as itself in an encoded segment.
    private static func isPlainByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"), UInt8(ascii: ":"),
            UInt8(ascii: "+"):
            true
        default:
            false
        }
    }
}
