import FoundationEssentials

/// The generic parts of a WebDAV request that every handler reads the same way, knowing
/// neither the server's nor the client's types: its `Depth`, whether its body is empty, and
/// its preconditions (`If-Match`, `If-None-Match`) against a resource's entity tag.
///
/// ```swift
/// WebDAVConditions.depth("1")                                         // .one
/// WebDAVConditions.evaluate(ifMatch: "\"a\"", ifNoneMatch: nil,
///                           currentETag: "\"b\"", isRead: false)        // .preconditionFailed
/// ```
enum WebDAVConditions {
    /// A request's `Depth` (RFC 4918 section 10.2).
    enum Depth: Sendable, Hashable {
        case zero, one, infinity
    }

    /// What a request's preconditions come to (RFC 9110 section 13.2.2, in its order).
    enum Outcome: Sendable, Hashable {
        /// Carry out the request.
        case proceed
        /// A read whose `If-None-Match` names the current tag: answer 304.
        case notModified
        /// Answer 412.
        case preconditionFailed
    }

    /// The `Depth` a header value says, or `nil` for a value that is none of `0`, `1` and
    /// `infinity`.
    static func depth(_ value: String) -> Depth? {
        switch value.trimmingWhitespaceAndNewlines.lowercased() {
        case "0": .zero
        case "1": .one
        case "infinity": .infinity
        default: nil
        }
    }

    /// Whether a body holds anything but white space.
    static func hasContent(_ body: Data) -> Bool {
        body.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    }

    /// Evaluates `If-Match` and `If-None-Match` against a resource's current entity tag
    /// (quoted, as sent; `nil` when the resource does not exist).
    ///
    /// - Parameter isRead: whether the method is `GET` or `HEAD`, for which a matching
    ///   `If-None-Match` means "not modified" rather than a failed precondition.
    static func evaluate(ifMatch: String?, ifNoneMatch: String?, currentETag: String?, isRead: Bool) -> Outcome {
        if let ifMatch {
            let tags = entityTags(ifMatch)
            guard let currentETag, tags.contains("*") || tags.contains(currentETag) else { return .preconditionFailed }
        }
        if let ifNoneMatch, let currentETag {
            let tags = entityTags(ifNoneMatch)
            if tags.contains("*") || tags.contains(currentETag) || tags.contains("W/" + currentETag) {
                return isRead ? .notModified : .preconditionFailed
            }
        }
        return .proceed
    }

    /// The entity tags of an `If-Match` or `If-None-Match` value, as written (`"abc"`,
    /// `W/"abc"`, `*`).
    static func entityTags(_ value: String) -> [String] {
        value.split(separator: ",").map { String($0).trimmingWhitespaceAndNewlines }.filter { !$0.isEmpty }
    }
}
