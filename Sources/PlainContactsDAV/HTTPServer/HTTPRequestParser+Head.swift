import PlainContacts

extension HTTPRequestParser {
    /// The three parts of a request line.
    struct RequestLine: Sendable, Hashable {
        /// The method token.
        var method: String
        /// The request target, as sent.
        var target: String
        /// The protocol version.
        var version: HTTPServerRequest.Version
    }

    /// How a request's body is delimited.
    enum Framing: Sendable, Hashable {
        /// A body of exactly this many bytes (`Content-Length`, or none at all for 0).
        case length(Int)
        /// A body in chunks (`Transfer-Encoding: chunked`).
        case chunked
    }

    /// Parses `method SP request-target SP HTTP-version`, with single spaces as RFC 9112 §3
    /// requires.
    ///
    /// - Throws: ``HTTPServerError/Code/badRequest`` for a malformed line,
    ///   ``HTTPServerError/Code/unsupportedVersion`` for a well-formed version other than 1.0
    ///   and 1.1.
    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPServerError) -> RequestLine {
        let parts = line.split(separator: HTTPSyntax.space, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .badRequest("request line without exactly three parts separated by single spaces")
        }
        guard HTTPSyntax.isToken(parts[0]) else { throw .badRequest("method is not a token") }
        guard !parts[1].isEmpty, parts[1].allSatisfy(HTTPSyntax.isTargetByte) else {
            throw .badRequest("request target empty or with bytes other than visible ASCII")
        }
        let version = try parseVersion(parts[2])
        return RequestLine(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
            version: version)
    }

    /// Parses `HTTP/` DIGIT `.` DIGIT.
    ///
    /// - Throws: ``HTTPServerError/Code/badRequest`` when it is not of that form,
    ///   ``HTTPServerError/Code/unsupportedVersion`` for another version than 1.0 and 1.1.
    static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPServerError) -> HTTPServerRequest.Version {
        let text = Array(bytes)
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard text.count == 8, text.starts(with: "HTTP/".utf8), isDigit(text[5]), text[6] == UInt8(ascii: "."),
            isDigit(text[7])
        else { throw .badRequest("malformed HTTP version") }
        switch String(decoding: text, as: UTF8.self) {
        case "HTTP/1.1": return .http1_1
        case "HTTP/1.0": return .http1_0
        default: throw HTTPServerError(.unsupportedVersion, "HTTP version other than 1.0 and 1.1", status: 505)
        }
    }

    /// Parses `field-name ":" OWS field-value OWS`.
    ///
    /// - Throws: ``HTTPServerError/Code/badRequest`` for a folded line (`obs-fold`, refused as
    ///   RFC 9112 §5.2 allows), a name that is not a token (which includes whitespace before the
    ///   colon) or a value with control bytes.
    static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPServerError) -> HTTPHeaderFields.Field {
        guard let first = line.first, !HTTPSyntax.isWhitespace(first) else {
            throw .badRequest("folded or indented header line")
        }
        guard let colon = line.firstIndex(of: HTTPSyntax.colon) else { throw .badRequest("header line without a colon") }
        let name = line[..<colon]
        guard HTTPSyntax.isToken(name) else { throw .badRequest("header name is not a token") }
        let value = HTTPSyntax.trimmed(line[(colon + 1)...])
        guard value.allSatisfy(HTTPSyntax.isFieldValueByte) else { throw .badRequest("control byte in a header value") }
        return HTTPHeaderFields.Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    /// Decides from a complete header block how the body is framed, and whether the request
    /// can be served at all (RFC 9112 §6, RFC 9110 §10.1.1).
    ///
    /// - Throws: ``HTTPServerError/Code/badRequest`` for an HTTP/1.1 request without exactly
    ///   one `Host`, for both `Transfer-Encoding` and `Content-Length` (a smuggling attempt), for
    ///   `Transfer-Encoding` in HTTP/1.0 and for a malformed or ambiguous `Content-Length`;
    ///   ``HTTPServerError/Code/unsupportedTransferCoding`` for a coding other than `chunked`;
    ///   ``HTTPServerError/Code/unsupportedExpectation`` for an `Expect` other than
    ///   `100-continue`; ``HTTPServerError/Code/bodyTooLarge`` for a `Content-Length` over the
    ///   limit.
    static func framing(
        of headers: HTTPHeaderFields, version: HTTPServerRequest.Version, limits: HTTPServerLimits
    ) throws(HTTPServerError) -> Framing {
        if version == .http1_1, headers.values(for: "Host").count != 1 {
            throw .badRequest("HTTP/1.1 request without exactly one Host field")
        }
        let transferEncodings = headers.values(for: "Transfer-Encoding")
        let contentLengths = headers.values(for: "Content-Length")
        let framing: Framing
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else { throw .badRequest("both Transfer-Encoding and Content-Length") }
            guard version == .http1_1 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
            let codings = listElements(transferEncodings)
            guard codings.allSatisfy({ $0 == "chunked" }) else {
                throw HTTPServerError(.unsupportedTransferCoding, "transfer coding other than chunked", status: 501)
            }
            guard codings.count == 1 else { throw .badRequest("chunked missing or applied more than once") }
            framing = .chunked
        } else if !contentLengths.isEmpty {
            framing = .length(try contentLength(contentLengths))
        } else {
            framing = .length(0)
        }
        let expectations = listElements(headers.values(for: "Expect"))
        guard expectations.allSatisfy({ $0 == "100-continue" }) else {
            throw HTTPServerError(.unsupportedExpectation, "expectation other than 100-continue", status: 417)
        }
        if case .length(let length) = framing, length > limits.maxBodySize {
            throw HTTPServerError(.bodyTooLarge, "Content-Length over the body limit", status: 413)
        }
        return framing
    }

    /// The one length that every `Content-Length` value (and every element of a comma-separated
    /// one) gives; `Int.max` for a number too large to hold, so that it fails the body limit.
    ///
    /// - Throws: ``HTTPServerError/Code/badRequest`` for a value that is not all digits, or
    ///   values that differ.
    static func contentLength(_ values: [String]) throws(HTTPServerError) -> Int {
        var length: Int?
        for value in values {
            for element in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let digits = HTTPSyntax.trimmed(ArraySlice(element))
                guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                    throw .badRequest("Content-Length is not a number")
                }
                let number = saturatingDecimal(digits)
                if let length, length != number { throw .badRequest("several different Content-Length values") }
                length = number
            }
        }
        return length ?? 0
    }

    /// The value of decimal digits, or `Int.max` when it does not fit.
    static func saturatingDecimal(_ digits: ArraySlice<UInt8>) -> Int {
        var value = 0
        for digit in digits {
            let (shifted, shiftOverflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = shifted.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if shiftOverflow || sumOverflow { return Int.max }
            value = sum
        }
        return value
    }

    /// The elements of comma-separated field values, trimmed and in lower case, empty ones left
    /// out.
    static func listElements(_ values: [String]) -> [String] {
        values.flatMap { value in
            value.split(separator: ",").map { HTTPSyntax.trimmed($0).lowercased() }.filter { !$0.isEmpty }
        }
    }
}
