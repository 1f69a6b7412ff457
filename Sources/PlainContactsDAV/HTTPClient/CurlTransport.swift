import Foundation
import Synchronization

/// The ``HTTPTransport`` a sync uses: libcurl's easy interface (``CurlLibrary``), for `http://`
/// and `https://` alike, waiting for the server in the kernel.
///
/// URLSession on Linux keeps a core busy while it waits: a server that took 4 s to answer each
/// of three requests cost `contacts remote add` 1.8–2.4 s of user and 7.8 s of system CPU, where
/// curl's own command used none. This transport spends nothing while it waits.
///
/// Connections are kept alive between requests: each request borrows an idle handle (and its
/// open connection) and gives it back, so that requests sent at once from several threads each
/// have their own. Redirects are handed back, never followed; nothing is retried and no
/// credentials are added (``HTTPClient`` does those); TLS certificates are checked against the
/// system's authorities.
///
/// What a server sends is bounded by ``HTTPResponseLimits``: libcurl's callbacks count each
/// header line and each piece of the body as it arrives, and the one that passes a bound is
/// answered with a short count, which makes libcurl abort the transfer at once; a
/// `Content-Length` above the body's bound aborts it at that header line.
///
/// ```swift
/// let transport = CurlTransport.standard()   // MissingCurlTransport where libcurl is missing
/// let response = try transport.send(HTTPRequest(method: "PROPFIND", url: url, headers: ["Depth": "0"]))
/// ```
final class CurlTransport: HTTPTransport {
    /// The transport to use: this one, or ``MissingCurlTransport`` where libcurl cannot be loaded.
    static func standard() -> any HTTPTransport {
        CurlLibrary.shared.map { CurlTransport(curl: $0) } ?? MissingCurlTransport()
    }

    /// How long a request may wait for the connection or the server's next bytes: a CardDAV
    /// server answers a PROPFIND of thousands of cards well within this.
    static let requestTimeout = 60
    /// How long one whole exchange may take, for a multiget of a large batch on a slow link.
    static let resourceTimeout = 300

    /// At most this many idle handles are kept; more are closed when given back.
    static let idleHandles = 8

    private let curl: CurlLibrary
    /// The most of an answer that is read.
    let limits: HTTPResponseLimits
    private let idle = Mutex<[HandleBox]>([])

    /// A transport over the loaded library, reading at most `limits` of each answer.
    init(curl: CurlLibrary, limits: HTTPResponseLimits = HTTPResponseLimits()) {
        self.curl = curl
        self.limits = limits
    }

    deinit {
        for box in idle.withLock({ $0 }) { curl.easyCleanup(box.handle) }
    }

    /// Sends a request and waits for its response: at most ``requestTimeout``
    /// for the connection or for the server's next bytes, ``resourceTimeout``
    /// for the whole exchange; at most ``limits`` of its answer.
    ///
    /// - Throws: ``HTTPTransportError`` when no response came, or
    ///   ``HTTPTransportError/Kind/responseTooLarge`` when the answer passed ``limits``.
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let box = borrow() else {
            throw HTTPTransportError(.connectionFailed, detail: "libcurl could not make a handle")
        }
        var keep = true
        defer { giveBack(box, keep: keep) }
        let exchange = Exchange(limits: limits, expectsBody: request.method != "HEAD")
        let code = perform(request, on: box.handle, into: exchange)
        if let refusal = exchange.refusal {
            // The rest of the answer is still on its way: the connection cannot carry another.
            keep = false
            throw HTTPTransportError(.responseTooLarge, detail: refusal)
        }
        guard code == CurlLibrary.ok else {
            // A handle whose transfer failed starts over with a new connection.
            keep = false
            let kind: HTTPTransportError.Kind = code == CurlLibrary.operationTimedOut ? .timedOut : .connectionFailed
            let detail = exchange.errorText.isEmpty ? curl.describe(code) : exchange.errorText
            throw HTTPTransportError(kind, detail: detail)
        }
        var status = 0
        _ = curl.getLong(box.handle, CurlLibrary.Info.responseCode, &status)
        return HTTPResponse(status: status, headers: exchange.headers, body: exchange.body.take(), url: request.url)
    }

    private func perform(_ request: HTTPRequest, on handle: CurlLibrary.Handle, into exchange: Exchange) -> CurlLibrary.Code {
        curl.easyReset(handle)
        var headerList: OpaquePointer?
        defer { curl.listFree(headerList) }
        // No `Expect: 100-continue` wait before a large body, and no form content type
        // libcurl would otherwise add to a body sent without one.
        var lines = request.headers.map { "\($0.key): \($0.value)" } + ["Expect:"]
        if request.body != nil, !request.headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
            lines.append("Content-Type:")
        }
        for line in lines {
            headerList = curl.listAppend(headerList, line)
        }
        let body = request.body ?? Data()
        return withExtendedLifetime(exchange) {
            body.withUnsafeBytes { bodyBytes in
                exchange.errorBuffer.withUnsafeMutableBufferPointer { errorBuffer in
                    let context = UnsafeMutableRawPointer(Unmanaged.passUnretained(exchange).toOpaque())
                    _ = curl.setLong(handle, CurlLibrary.Option.noSignal, 1)
                    _ = curl.setPointer(handle, CurlLibrary.Option.protocolsString, "http,https")
                    _ = curl.setPointer(handle, CurlLibrary.Option.url, request.url.absoluteString)
                    _ = curl.setPointer(handle, CurlLibrary.Option.httpHeader, UnsafeRawPointer(headerList))
                    _ = curl.setPointer(handle, CurlLibrary.Option.acceptEncoding, "")
                    _ = curl.setLong(handle, CurlLibrary.Option.followLocation, 0)
                    _ = curl.setLong(handle, CurlLibrary.Option.connectTimeout, Self.requestTimeout)
                    _ = curl.setLong(handle, CurlLibrary.Option.lowSpeedLimit, 1)
                    _ = curl.setLong(handle, CurlLibrary.Option.lowSpeedTime, Self.requestTimeout)
                    _ = curl.setLong(handle, CurlLibrary.Option.timeout, Self.resourceTimeout)
                    _ = curl.setPointer(handle, CurlLibrary.Option.errorBuffer, errorBuffer.baseAddress)
                    _ = curl.setPointer(handle, CurlLibrary.Option.writeFunction, unsafeBitCast(Self.receiveBody, to: UnsafeRawPointer.self))
                    _ = curl.setPointer(handle, CurlLibrary.Option.writeData, context)
                    _ = curl.setPointer(handle, CurlLibrary.Option.headerFunction, unsafeBitCast(Self.receiveHeader, to: UnsafeRawPointer.self))
                    _ = curl.setPointer(handle, CurlLibrary.Option.headerData, context)
                    switch (request.method, request.body) {
                    case ("GET", nil):
                        _ = curl.setLong(handle, CurlLibrary.Option.httpGet, 1)
                    case ("HEAD", nil):
                        _ = curl.setLong(handle, CurlLibrary.Option.noBody, 1)
                    case (_, nil):
                        _ = curl.setPointer(handle, CurlLibrary.Option.customRequest, request.method)
                    case (_, .some):
                        // A body of any method goes the way of a POST's, under the request's method.
                        _ = curl.setLong(handle, CurlLibrary.Option.post, 1)
                        _ = curl.setOffset(handle, CurlLibrary.Option.postFieldSizeLarge, Int64(bodyBytes.count))
                        _ = curl.setPointer(handle, CurlLibrary.Option.postFields, bodyBytes.baseAddress ?? UnsafeRawPointer(errorBuffer.baseAddress))
                        if request.method != "POST" {
                            _ = curl.setPointer(handle, CurlLibrary.Option.customRequest, request.method)
                        }
                    }
                    let code = curl.easyPerform(handle)
                    // The handle outlives these buffers: it must not point at them.
                    _ = curl.setPointer(handle, CurlLibrary.Option.errorBuffer, nil)
                    _ = curl.setPointer(handle, CurlLibrary.Option.httpHeader, nil)
                    return code
                }
            }
        }
    }

    // MARK: Handles

    /// An easy handle, which keeps its connection open between the requests it carries.
    // @unchecked: a handle is used by one request at a time, handed over under `idle`'s lock.
    private final class HandleBox: @unchecked Sendable {
        let handle: CurlLibrary.Handle
        init(_ handle: CurlLibrary.Handle) { self.handle = handle }
    }

    private func borrow() -> HandleBox? {
        if let box = idle.withLock({ $0.popLast() }) { return box }
        return curl.easyInit().map(HandleBox.init)
    }

    private func giveBack(_ box: HandleBox, keep: Bool) {
        let kept = keep && idle.withLock { boxes in
            guard boxes.count < Self.idleHandles else { return false }
            boxes.append(box)
            return true
        }
        if !kept { curl.easyCleanup(box.handle) }
    }

    // MARK: Receiving

    /// What one request brought back, filled in by libcurl's callbacks on the sending thread.
    private final class Exchange {
        let limits: HTTPResponseLimits
        /// Whether a body may follow the headers (not after a `HEAD`), so that a
        /// `Content-Length` is a promise of one.
        let expectsBody: Bool
        var headers: [String: String] = [:]
        let body: HTTPResponseBody
        /// The bytes of every header line received so far.
        var headerBytes = 0
        /// Why reading stopped short of the whole answer, once it has.
        var refusal: String?
        var errorBuffer = [CChar](repeating: 0, count: 256)  // CURL_ERROR_SIZE

        init(limits: HTTPResponseLimits, expectsBody: Bool) {
            self.limits = limits
            self.expectsBody = expectsBody
            body = HTTPResponseBody(bound: limits.maximumBodySize)
        }

        var errorText: String {
            errorBuffer.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { String(cString: $0) } ?? ""
            }
        }

        /// Takes one header line, or refuses it when it passes the header block's bound or
        /// announces a body past the body's; a status line starts over, so that only the final
        /// response's headers are kept (not those of a `100 Continue`).
        ///
        /// - Returns: whether the line was taken; reading stops at one that was not.
        func take(headerLine bytes: UnsafeRawBufferPointer) -> Bool {
            headerBytes += bytes.count
            guard headerBytes <= limits.maximumHeaderBlockSize else {
                refusal = "its header block passed \(HTTPResponseLimits.describe(limits.maximumHeaderBlockSize))"
                return false
            }
            let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                headers = [:]
                return true
            }
            guard let colon = line.firstIndex(of: ":") else { return true }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if expectsBody, name.lowercased() == "content-length", let length = Int(value), length > limits.maximumBodySize {
                refusal = "its Content-Length of \(length) bytes is over \(HTTPResponseLimits.describe(limits.maximumBodySize))"
                return false
            }
            if let earlier = headers[name] {
                headers[name] = earlier + ", " + value
            } else {
                headers[name] = value
            }
            return true
        }

        /// Takes a piece of the body, or refuses it when the body would pass its bound.
        ///
        /// - Returns: whether the piece was taken; reading stops at one that was not.
        func take(bodyPiece bytes: UnsafeRawBufferPointer) -> Bool {
            guard body.append(bytes) else {
                refusal = "its body passed \(HTTPResponseLimits.describe(limits.maximumBodySize))"
                return false
            }
            return true
        }
    }

    /// libcurl's write callback: a short count (0) aborts the transfer with `CURLE_WRITE_ERROR`.
    private static let receiveBody: CurlLibrary.WriteCallback = { bytes, size, count, context in
        guard let bytes, let context else { return 0 }
        let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
        return exchange.take(bodyPiece: UnsafeRawBufferPointer(start: bytes, count: size * count)) ? size * count : 0
    }

    /// libcurl's header callback, aborting the same way.
    private static let receiveHeader: CurlLibrary.WriteCallback = { bytes, size, count, context in
        guard let bytes, let context else { return 0 }
        let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
        return exchange.take(headerLine: UnsafeRawBufferPointer(start: bytes, count: size * count)) ? size * count : 0
    }
}
