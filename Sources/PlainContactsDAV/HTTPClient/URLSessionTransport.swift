import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``HTTPTransport`` where libcurl cannot be loaded: `URLSession` (FoundationNetworking on
/// Linux), waited on synchronously, with redirects handed back to the caller instead of
/// followed.
///
/// Its tasks hand their answer to the session's delegate piece by piece, so that what a server
/// sends is bounded by ``HTTPResponseLimits`` as with ``CurlTransport``: a task is cancelled
/// as soon as its response announces a `Content-Length` or a header block past them, or its
/// body grows past ``HTTPResponseLimits/maximumBodySize``. FoundationNetworking cannot abort
/// a transfer from the delegate, and takes a moment to carry out a cancel while a fast server
/// keeps sending: the pieces that arrive meanwhile are dropped at once, so that the memory
/// stays bounded (the header block it reads itself, through libcurl, which gives up on one
/// past 300 KiB).
///
/// ```swift
/// let transport = URLSessionTransport()
/// let response = try transport.send(HTTPRequest(method: "GET", url: url))
/// ```
struct URLSessionTransport: HTTPTransport {
    /// How long a request may wait for the server's next bytes: a CardDAV server answers a
    /// PROPFIND of thousands of cards well within this.
    static let requestTimeout: TimeInterval = 60
    /// How long one whole exchange may take, for a multiget of a large batch on a slow link.
    static let resourceTimeout: TimeInterval = 300

    /// How long past ``resourceTimeout`` a task may take to report its end before it is given
    /// up on: a guard against a session that never completes a task.
    static let completionGrace: TimeInterval = 10

    /// The most of an answer that is read.
    let limits: HTTPResponseLimits
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a transport with its own session, reading at most `limits` of each answer.
    init(limits: HTTPResponseLimits = HTTPResponseLimits()) {
        self.limits = limits
        delegate = SessionDelegate(limits: limits)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.requestTimeout
        configuration.timeoutIntervalForResource = Self.resourceTimeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Sends a request and waits for its response, at most ``resourceTimeout`` and a grace; at
    /// most ``limits`` of its answer.
    ///
    /// - Throws: ``HTTPTransportError`` when no response came, or
    ///   ``HTTPTransportError/Kind/responseTooLarge`` when the answer passed ``limits``.
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let task = session.dataTask(with: urlRequest)
        let reception = Reception(expectsBody: request.method != "HEAD")
        delegate.register(reception, for: task.taskIdentifier)
        defer { delegate.forget(task.taskIdentifier) }
        task.resume()
        if reception.done.wait(timeout: .now() + Self.resourceTimeout + Self.completionGrace) == .timedOut {
            task.cancel()
            throw HTTPTransportError(.timedOut, detail: "no answer within \(Int(Self.resourceTimeout)) s")
        }
        return try reception.response(for: request)
    }

    /// Receives every task's answer into its ``Reception``, cancelling a task whose answer
    /// passes the limits; hands every redirect back as the response, so that ``HTTPClient``
    /// decides what to keep; and turns an authentication challenge into the `401` it answers:
    /// the credentials are already in the request, and FoundationNetworking's default handling
    /// of a challenge never completes the task.
    // @unchecked: `receptions` is read and written under `lock`; `limits` never changes.
    private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let limits: HTTPResponseLimits
        private let lock = NSLock()
        private var receptions: [Int: Reception] = [:]

        init(limits: HTTPResponseLimits) {
            self.limits = limits
        }

        /// Starts receiving a task's answer, before the task is resumed.
        func register(_ reception: Reception, for task: Int) {
            lock.withLock { receptions[task] = reception }
        }

        /// Stops receiving a task's answer, once it is done or given up.
        func forget(_ task: Int) {
            _ = lock.withLock { receptions.removeValue(forKey: task) }
        }

        private func reception(of task: URLSessionTask) -> Reception? {
            lock.withLock { receptions[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
            reception(of: task)?.refuse(status: status)
            completionHandler(.rejectProtectionSpace, nil)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard reception(of: dataTask)?.take(response, limits: limits) == .refused else {
                completionHandler(.allow)
                return
            }
            // FoundationNetworking ignores a `.cancel` disposition: the task is cancelled too.
            completionHandler(.cancel)
            Self.cancel(dataTask)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            if reception(of: dataTask)?.take(bodyPiece: data, limits: limits) == .refused {
                Self.cancel(dataTask)
            }
        }

        /// Cancels a task off the delegate's queue: `cancel()` waits for the session's own
        /// queue, which a fast server keeps busy, and the delegate's queue must meanwhile go on
        /// dropping the pieces that arrive, each holding its bytes until it is handled.
        private static func cancel(_ task: URLSessionDataTask) {
            DispatchQueue.global().async { task.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            reception(of: task)?.finish(error: error)
        }
    }

    /// What one task brought back, filled in on the session's delegate queue and signalled
    /// through ``done`` when the task ends.
    // @unchecked: every property but `done` and `expectsBody` is read and written under `lock`.
    private final class Reception: @unchecked Sendable {
        /// What became of a part of the answer.
        enum Outcome {
            /// It was kept.
            case taken
            /// It passed the limits: the answer is refused, and its task must be cancelled.
            case refused
            /// It came after the answer was refused, and was dropped.
            case dropped
        }

        /// Signalled once, when the task has ended.
        let done = DispatchSemaphore(value: 0)
        /// Whether a body may follow the headers (not after a `HEAD`).
        let expectsBody: Bool
        private let lock = NSLock()
        private var response: HTTPURLResponse?
        /// The body so far, made with the bound at its first piece.
        private var body: HTTPResponseBody?
        private var error: (any Error)?
        /// The status of the challenge that ended the task, if one did.
        private var challengeStatus: Int?
        /// Why reading stopped short of the whole answer, once it has.
        private var refusal: String?

        init(expectsBody: Bool) {
            self.expectsBody = expectsBody
        }

        /// Takes the response's head, or refuses it when its header block, or the body its
        /// `Content-Length` announces, would pass the limits.
        func take(_ response: URLResponse, limits: HTTPResponseLimits) -> Outcome {
            lock.withLock {
                guard let http = response as? HTTPURLResponse else { return .taken }
                self.response = http
                var headerBytes = 0
                for (name, value) in http.allHeaderFields {
                    // "Name: value" and the line end, as it came.
                    headerBytes += "\(name)".utf8.count + "\(value)".utf8.count + 4
                }
                if headerBytes > limits.maximumHeaderBlockSize {
                    refusal = "its header block passed \(HTTPResponseLimits.describe(limits.maximumHeaderBlockSize))"
                } else if expectsBody, http.expectedContentLength > Int64(limits.maximumBodySize) {
                    refusal = "its Content-Length of \(http.expectedContentLength) bytes is over "
                        + HTTPResponseLimits.describe(limits.maximumBodySize)
                }
                return refusal == nil ? .taken : .refused
            }
        }

        /// Takes a piece of the body, or refuses the answer (dropping what was kept) when the
        /// body would pass its bound; drops every piece after that.
        func take(bodyPiece data: Data, limits: HTTPResponseLimits) -> Outcome {
            lock.withLock {
                guard refusal == nil else { return .dropped }
                let kept = body ?? HTTPResponseBody(bound: limits.maximumBodySize)
                body = kept
                guard data.withUnsafeBytes({ kept.append($0) }) else {
                    refusal = "its body passed \(HTTPResponseLimits.describe(limits.maximumBodySize))"
                    body = nil
                    return .refused
                }
                return .taken
            }
        }

        /// Records that a challenge with this status ended the task.
        func refuse(status: Int) {
            lock.withLock { challengeStatus = status }
        }

        /// Records how the task ended, and signals ``done``.
        func finish(error: (any Error)?) {
            lock.withLock { self.error = error }
            done.signal()
        }

        /// The response the task brought back.
        ///
        /// - Throws: ``HTTPTransportError`` when it brought back none, or a refused one.
        func response(for request: HTTPRequest) throws -> HTTPResponse {
            try lock.withLock {
                if let refusal {
                    throw HTTPTransportError(.responseTooLarge, detail: refusal)
                }
                if let challengeStatus {
                    return HTTPResponse(status: challengeStatus, url: request.url)
                }
                if let error {
                    let code = (error as? URLError)?.code
                    let kind: HTTPTransportError.Kind = code == .timedOut ? .timedOut : .connectionFailed
                    throw HTTPTransportError(kind, detail: "\(code.map { "URLError \($0.rawValue)" } ?? "no answer")")
                }
                guard let http = response else {
                    throw HTTPTransportError(.connectionFailed, detail: "the answer is not HTTP")
                }
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name] = value }
                }
                return HTTPResponse(status: http.statusCode, headers: headers, body: body?.take() ?? Data(), url: request.url)
            }
        }
    }
}
