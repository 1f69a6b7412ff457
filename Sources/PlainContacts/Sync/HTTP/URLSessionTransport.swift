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

    private let session: URLSession

    /// Creates a transport with its own session.
    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.requestTimeout
        configuration.timeoutIntervalForResource = Self.resourceTimeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
    }

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
        done.wait()
        return try outcome.response(for: request)
    }

    /// Hands every redirect back as the response, so that ``HTTPClient`` decides what to keep.
    private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
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
