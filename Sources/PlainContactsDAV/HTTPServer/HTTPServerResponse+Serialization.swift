extension HTTPServerResponse {
    /// The fields the server writes itself; a handler's own copies are dropped.
    static let serverOwnedFields = ["Content-Length", "Transfer-Encoding", "Date", "Connection"]

    /// The range of status codes a handler may answer with: final responses only, since the
    /// server sends `100 Continue` itself and supports no protocol switch.
    static let finalStatuses = 200...599

    /// The interim response sent before reading the body of a request with
    /// `Expect: 100-continue`.
    static let continueHead = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Whether the handler asked for the connection to be closed after this response.
    var asksToClose: Bool {
        headers.containsToken("close", in: "Connection")
    }

    /// Whether the status allows a body and a `Content-Length`: not for 204 (No Content) and
    /// 304 (Not Modified), RFC 9110 §8.6 and §15.4.5.
    var statusAllowsBody: Bool {
        status != 204 && status != 304
    }

    /// Whether the server writes ``body`` after the head: not for `HEAD`, nor for statuses
    /// without content.
    func writesBody(forHeadRequest isHeadRequest: Bool) -> Bool {
        !isHeadRequest && statusAllowsBody
    }

    /// The names of the handler's fields that cannot be written: a name that is not a token,
    /// or a value with control bytes, which could otherwise split the response.
    var unwritableFieldNames: [String] {
        headers.filter { !Self.isWritable($0) }.map(\.name)
    }

    /// The status line and header block as the server writes them, ending with the empty line.
    ///
    /// - Parameters:
    ///   - isHeadRequest: Whether the request was `HEAD`: the declared length is then
    ///     ``headContentLength`` when set.
    ///   - connection: The `Connection` value to write (`close`, `keep-alive`), or `nil` for none.
    ///   - date: The `Date` value, as ``HTTPDate/format(_:)`` writes it.
    ///
    /// ```swift
    /// let head = response.serializedHead(isHeadRequest: false, connection: "close", date: HTTPDate.now())
    /// ```
    func serializedHead(isHeadRequest: Bool, connection: String?, date: String) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(HTTPStatus.reasonPhrase(for: status))\r\n"
        text += "Date: \(date)\r\n"
        if statusAllowsBody {
            let length = isHeadRequest ? (headContentLength ?? body.count) : body.count
            text += "Content-Length: \(max(0, length))\r\n"
        }
        if let connection {
            text += "Connection: \(connection)\r\n"
        }
        for field in headers where Self.isWritable(field) {
            guard !Self.serverOwnedFields.contains(where: { HTTPHeaderFields.matches($0, field.name) }) else { continue }
            text += "\(field.name): \(HTTPSyntax.trimmed(field.value))\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// Whether a field can be written without breaking the response's framing.
    private static func isWritable(_ field: HTTPHeaderFields.Field) -> Bool {
        HTTPSyntax.isToken(Array(field.name.utf8)) && HTTPSyntax.isSafeFieldValue(field.value)
    }
}
