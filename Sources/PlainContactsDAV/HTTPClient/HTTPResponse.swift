import Foundation

/// One HTTP response, as a value.
///
/// ```swift
/// let response = try client.send(request)
/// if response.status == 207 { try WebDAVMultistatus.parse(response.body, url: response.url.absoluteString) }
/// let etag = response.header("ETag")
/// ```
struct HTTPResponse: Hashable, Sendable {
    /// The status code, such as `207`.
    var status: Int
    /// Header fields by name, as the server wrote them.
    var headers: [String: String]
    /// The body, empty when there is none.
    var body: Data
    /// The URL that answered: the request's, or the last one a redirect led to.
    var url: URL

    /// Creates a response.
    init(status: Int, headers: [String: String] = [:], body: Data = Data(), url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// A header's value, its name compared without case (`etag` finds `ETag`).
    func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}
