import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real ``HTTPTransport``: `URLSession` (FoundationNetworking on Linux), waited on
/// synchronously, with redirects handed back to the caller instead of followed.
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

    private let session: URLSession
    private let delegate = SessionDelegate()

    /// Creates a transport with its own session.
    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.requestTimeout
        configuration.timeoutIntervalForResource = Self.resourceTimeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Sends a request and waits for its response, at most ``resourceTimeout`` and a grace.
    ///
    /// - Throws: ``HTTPTransportError`` when no response came.
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            outcome.set(data: data, response: response, error: error)
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + Self.resourceTimeout + Self.completionGrace) == .timedOut {
            task.cancel()
            throw HTTPTransportError(.timedOut, detail: "no answer within \(Int(Self.resourceTimeout)) s")
        }
        if let status = delegate.refusal(of: task.taskIdentifier) {
            return HTTPResponse(status: status, url: request.url)
        }
        return try outcome.response(for: request)
    }

    /// Hands every redirect back as the response, so that ``HTTPClient`` decides what to keep,
    /// and turns an authentication challenge into the `401` it answers: the credentials are
    /// already in the request, and FoundationNetworking's default handling of a challenge never
    /// completes the task.
    // @unchecked: `refusals` is read and written under `lock`.
    private final class SessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var refusals: [Int: Int] = [:]

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
            lock.withLock { refusals[task.taskIdentifier] = status }
            completionHandler(.rejectProtectionSpace, nil)
        }

        /// The status of the challenge that ended a task, if one did; forgets it.
        func refusal(of task: Int) -> Int? {
            lock.withLock { refusals.removeValue(forKey: task) }
        }
    }

    /// What the session's completion handler brought back.
    // @unchecked: written once on the session's queue before the semaphore is signalled, read after.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var response: URLResponse?
        private var error: (any Error)?

        func set(data: Data?, response: URLResponse?, error: (any Error)?) {
            lock.withLock {
                self.data = data
                self.response = response
                self.error = error
            }
        }

        func response(for request: HTTPRequest) throws -> HTTPResponse {
            try lock.withLock {
                if let error {
                    let code = (error as? URLError)?.code
                    let kind: HTTPTransportError.Kind = code == .timedOut ? .timedOut : .connectionFailed
                    throw HTTPTransportError(kind, detail: "\(code.map { "URLError \($0.rawValue)" } ?? "no answer")")
                }
                guard let http = response as? HTTPURLResponse else {
                    throw HTTPTransportError(.connectionFailed, detail: "the answer is not HTTP")
                }
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name] = value }
                }
                return HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data(), url: request.url)
            }
        }
    }
}
