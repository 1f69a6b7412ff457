import DAVTestSupport
import Foundation
import PlainContacts

/// A browser's session with the web pages of a `contacts serve` without users, for
/// ``WebBench``: the session cookie the server sets on `/web/`, the book's path it redirects
/// to, and requests on one kept-alive connection carrying that cookie.
///
/// ```swift
/// let client = try WebBenchClient(port: served.port)
/// let (seconds, answer) = try client.timedGet(client.bookPath)
/// ```
final class WebBenchClient {
    /// The cookie that names a session (`WebService.cookieName`).
    static let cookieName = "contacts_session"

    private let connection: RawHTTPConnection
    /// The `Cookie` header every request carries.
    private let cookie: String
    /// The path of the served book's people list, such as `/web/books/contacts/`.
    let bookPath: String

    /// Opens a session: `GET /web/`, which sets the cookie and, the server serving one book,
    /// redirects to it.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the server sets no cookie or does not redirect.
    init(port: Int) throws {
        connection = RawHTTPConnection(port: port)
        let answer = try connection.send("GET", "/web/")
        guard let setCookie = answer.header("set-cookie"), setCookie.hasPrefix(Self.cookieName + "="),
            let value = setCookie.dropFirst(Self.cookieName.count + 1).split(separator: ";").first
        else { throw ContactsError(.io, "the web pages set no session cookie (status \(answer.status))") }
        cookie = "\(Self.cookieName)=\(value)"
        guard (300..<400).contains(answer.status), let location = answer.header("location") else {
            throw ContactsError(.io, "the web pages did not send the browser to the one book (status \(answer.status))")
        }
        bookPath = location.hasPrefix("/") ? location : URL(string: location)?.path ?? location
    }

    /// The JSON API's first page of the book's people.
    var jsonPath: String { bookPath + "people.json" }

    /// The answer to `GET path`.
    ///
    /// - Throws: ``RawHTTPConnection/Failure`` when the connection fails.
    func get(_ path: String) throws -> RawHTTPConnection.Response {
        try connection.send("GET", path, headers: ["Cookie": cookie])
    }

    /// The answer to `GET path`, and the seconds from sending it to its last byte.
    ///
    /// - Throws: ``RawHTTPConnection/Failure`` when the connection fails.
    func timedGet(_ path: String) throws -> (seconds: Double, answer: RawHTTPConnection.Response) {
        let clock = ContinuousClock()
        let start = clock.now
        let answer = try get(path)
        return ((clock.now - start).seconds, answer)
    }

    /// `words` as a query's value: every character but letters and digits percent-encoded.
    static func encoded(_ words: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return words.addingPercentEncoding(withAllowedCharacters: allowed) ?? words
    }
}
