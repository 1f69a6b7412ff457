/// A request's preconditions on a card, `If-Match` and `If-None-Match`, as values: what a
/// handler reads from the request and a ``CardDAVWriter`` checks against the card as it is when
/// the write starts.
///
/// ```swift
/// let preconditions = CardDAVPreconditions(ifMatch: "\"3f2a\"", ifNoneMatch: nil)
/// try preconditions.check(current: entry)   // 412 unless the card's ETag is "3f2a"
/// ```
struct CardDAVPreconditions: Sendable, Hashable {
    /// The `If-Match` value, as sent.
    var ifMatch: String?
    /// The `If-None-Match` value, as sent.
    var ifNoneMatch: String?

    /// Preconditions given as values.
    init(ifMatch: String? = nil, ifNoneMatch: String? = nil) {
        self.ifMatch = ifMatch
        self.ifNoneMatch = ifNoneMatch
    }

    /// The preconditions of a request.
    init(_ request: HTTPServerRequest) {
        self.init(ifMatch: request.header("If-Match"), ifNoneMatch: request.header("If-None-Match"))
    }

    /// Checks the preconditions against a card's current ETag (`current` `nil` when it does not
    /// exist), as ``WebDAVConditions/evaluate(ifMatch:ifNoneMatch:currentETag:isRead:)`` does.
    ///
    /// - Parameter isRead: whether the request is a `GET` or `HEAD`.
    /// - Throws: a 412 failure when a condition fails; for a read, a 304 failure when
    ///   `If-None-Match` names the current ETag.
    func check(current: CardDAVEntry?, isRead: Bool = false) throws {
        let outcome = WebDAVConditions.evaluate(
            ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, currentETag: current?.quotedETag, isRead: isRead)
        switch outcome {
        case .proceed: return
        case .preconditionFailed: throw CardDAVFailure(status: 412)
        case .notModified:
            var failure = CardDAVFailure(status: 304)
            if let current { failure.headers.append("ETag", current.quotedETag) }
            throw failure
        }
    }
}
