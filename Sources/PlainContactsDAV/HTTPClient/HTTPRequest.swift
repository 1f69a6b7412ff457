import Foundation

/// One HTTP request, as a value: what ``HTTPClient`` sends and a transport carries.
///
/// ```swift
/// var request = HTTPRequest(method: "PROPFIND", url: collectionURL, body: Data(xml.utf8))
/// request.headers["Depth"] = "0"
/// ```
struct HTTPRequest: Hashable, Sendable {
    /// The method, such as `GET`, `PROPFIND` or `REPORT`.
    var method: String
    /// The absolute URL asked for.
    var url: URL
    /// Header fields by name, as they are sent.
    var headers: [String: String]
    /// The body, or `nil` for none.
    var body: Data?

    /// Creates a request.
    init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method and URL only: the headers may hold credentials (`Authorization`), and the body
    /// a person's card.
    var description: String { "\(method) \(HTTPClient.describe(url))" }
    var debugDescription: String { description }
    var customMirror: Mirror {
        Mirror(self, children: ["method": method, "url": HTTPClient.describe(url), "headers": headers.keys.sorted()])
    }
}
