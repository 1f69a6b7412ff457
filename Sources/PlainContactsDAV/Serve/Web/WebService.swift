#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// The address book in a browser, under `/web/`: sign-in with the server's users, the books a
/// user is granted, each book's people with search, and each person's page.
///
/// Each view is a function from the request and the store to a page (``WebService+Pages``),
/// read with the same library operations as `contacts list`, `search` and `show`. The pages
/// work without JavaScript; the script only searches as the user types.
///
/// Every answer carries a Content-Security-Policy that allows only this server's style sheet
/// and script (no inline script, no frames: `frame-ancestors 'none'`), `nosniff`, and no
/// caching of pages. A session is an `HttpOnly; SameSite=Strict` cookie (``WebSessions``); a
/// `POST` is refused unless it comes from a page of this server (its `Origin` and
/// `Sec-Fetch-Site`) and carries the session's form token. Sign-in checks passwords as the
/// CardDAV side does, with the same failure budgets.
///
/// ```swift
/// let web = WebService(service: service, authenticator: authenticator)
/// if WebService.handles(request.path) { return web.respond(to: request, client: client) }
/// ```
final class WebService: Sendable {
    /// The path every page is under.
    static let prefix = "/web/"
    /// The cookie that names the session.
    static let cookieName = "contacts_session"

    /// The policy every answer carries.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    let sessions: WebSessions
    /// The people lists last read, kept while their books stay as they are.
    let listings = WebListingCache()
    /// Where each book's whole list is kept for the server's next start.
    let listFiles: WebBookListKeeper
    let service: CardDAVService
    let authenticator: ServerAuthenticator
    /// Where the history pages read a book's history; `nil`: the server keeps none.
    let history: (any StoreHistory)?

    init(
        service: CardDAVService, authenticator: ServerAuthenticator, sessions: WebSessions = WebSessions(),
        history: (any StoreHistory)? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        listFiles = WebBookListKeeper(log: log)
        self.service = service
        self.authenticator = authenticator
        self.sessions = sessions
        self.history = history
    }

    /// Whether `path` is one of the web pages'.
    static func handles(_ path: String) -> Bool {
        path == "/web" || path.hasPrefix(prefix)
    }

    /// Answers a request for a web page, from `client` (its address, for the sign-in budget).
    func respond(to request: HTTPServerRequest, client: String?) -> HTTPServerResponse {
        var response = route(request, client: client)
        Self.secure(&response)
        return response
    }

    // MARK: Routing

    private func route(_ request: HTTPServerRequest, client: String?) -> HTTPServerResponse {
        let path = request.path
        if path == "/web" { return Self.redirect(to: Self.prefix) }
        let segments = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let isRead = request.method == "GET" || request.method == "HEAD"
        if segments.first == "static", isRead, let asset = WebAssets.asset(at: path) {
            var response = HTTPServerResponse(status: 200, headers: ["Content-Type": asset.type], body: Data(asset.text.utf8))
            response.headers.append("Cache-Control", "no-cache")
            return response
        }
        // A form another site posts is refused before anything else is looked at.
        if request.method == "POST", let refusal = Self.refuseForeignOrigin(request) { return refusal }
        if segments == ["signin"] {
            switch request.method {
            case "POST": return signIn(request, client: client)
            case "GET", "HEAD": return Self.redirect(to: Self.prefix)
            default: return Self.notAllowed
            }
        }
        guard let (session, setCookie) = session(of: request) else {
            // A program reading the API is told so instead of being sent to the sign-in page.
            if segments.last?.hasSuffix(".json") == true { return Self.json(401, error: "sign in first") }
            return isRead && segments == [""] ? signInPage(status: 200, message: nil) : Self.redirect(to: Self.prefix)
        }
        var response: HTTPServerResponse
        if request.method == "POST" {
            if request.body.count > WebForm.maximumBodySize { return Self.tooLarge(for: session) }
            if let refusal = Self.refuseForeignPost(request, session: session) { return refusal }
            response = post(segments, body: Self.form(of: request), session: session)
        } else if !isRead {
            response = Self.notAllowed
        } else {
            response = page(segments, query: WebForm(request.query), session: session)
            // An answer the browser already holds (a photo it kept) is not sent again.
            if let etag = response.headers["ETag"], request.header("If-None-Match") == etag {
                response = HTTPServerResponse(status: 304, headers: ["ETag": etag, "Cache-Control": response.headers["Cache-Control"] ?? "no-cache"])
            }
        }
        if let setCookie { response.headers.append("Set-Cookie", setCookie) }
        return response
    }

    /// The page at `segments` (the path after `/web/`).
    private func page(_ segments: [String], query: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        let books = service.servedBooks(authenticator.books(of: session.user))
        switch segments {
        case [""]:
            if books.count == 1, let only = books.first { return Self.redirect(to: Self.bookPath(only.book.name)) }
            return booksPage(books, signed: signed)
        case let path where path.count == 3 && path[0] == "books" && path[2] == "":
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            return peoplePage(target, query: query, signed: signed)
        case let path where path.count == 4 && path[0] == "books" && path[2] == "people":
            guard let target = Self.target(named: path[1], in: books) else {
                return path[3].hasSuffix(".json") ? Self.json(404, error: "there is no such book") : Self.notFound(signed)
            }
            if path[3].hasSuffix(".vcf") {
                return personCard(target, id: String(path[3].dropLast(4)), signed: signed)
            }
            if path[3].hasSuffix(".json") { return personJSON(target, id: String(path[3].dropLast(5))) }
            return personPage(target, id: path[3], signed: signed)
        case let path where path.count == 5 && path[0] == "books" && path[2] == "people":
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            switch path[4] {
            case "edit": return editPage(target, id: path[3], offering: query, signed: signed)
            case "photo": return photo(target, id: path[3], signed: signed)
            case "remove": return removePage(target, id: path[3], signed: signed)
            case "history": return historyPage(target, id: path[3], skipping: Int(query["skip"] ?? "") ?? 0, signed: signed)
            default: return Self.notFound(signed)
            }
        case let path where path.count == 4 && path[0] == "books" && path[2] == "removed":
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            return path[3].isEmpty ? removedPage(target, signed: signed) : removedPersonPage(target, key: path[3], signed: signed)
        case let path where path.count == 4 && path[0] == "books" && path[2] == "duplicates" && path[3].isEmpty:
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            return duplicatesPage(target, signed: signed)
        case let path where path.count == 5 && path[0] == "books" && path[2] == "duplicates":
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            return mergePage(target, keep: path[3], other: path[4], signed: signed)
        case let path where path.count == 4 && path[0] == "books" && path[2] == "groups":
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            return path[3].isEmpty ? groupsPage(target, signed: signed) : groupPage(target, id: path[3], find: query["find"], signed: signed)
        case let path where path.count == 3 && path[0] == "books" && ["export.vcf", "export.csv"].contains(path[2]):
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            return bookDownload(target, format: String(path[2].dropFirst("export.".count)), signed: signed)
        case let path where path.count == 3 && path[0] == "books" && path[2] == "people.json":
            guard let target = Self.target(named: path[1], in: books) else { return Self.json(404, error: "there is no such book") }
            return peopleJSON(target, query: query)
        case let path where path.count == 3 && path[0] == "books" && path[2] == "new":
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            return editPage(target, id: nil, offering: query, signed: signed)
        case let path where path.count == 3 && path[0] == "books" && path[2] == "import":
            guard let target = Self.target(named: path[1], in: books) else { return Self.notFound(signed) }
            return importPage(target, signed: signed)
        default:
            return Self.notFound(signed)
        }
    }

    /// The answer to a form sent to `segments` (its token and origin already checked).
    private func post(_ segments: [String], body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        if segments == ["signout"] { return signOut(session) }
        let books = service.servedBooks(authenticator.books(of: session.user))
        guard segments.count >= 3, segments[0] == "books", let target = Self.target(named: segments[1], in: books) else {
            return Self.notFound(signed)
        }
        if segments.count == 5, segments[2] == "people", segments[4] == "edit" {
            return save(target, id: segments[3], body: body, session: session)
        }
        if segments.count == 5, segments[2] == "people", segments[4] == "remove" {
            return remove(target, id: segments[3], body: body, session: session)
        }
        if segments.count == 5, segments[2] == "people", segments[4] == "history" {
            return restoreVersion(target, id: segments[3], body: body, session: session)
        }
        if segments.count == 4, segments[2] == "removed", !segments[3].isEmpty {
            return restoreRemoved(target, key: segments[3], body: body, session: session)
        }
        if segments.count == 5, segments[2] == "duplicates" {
            return merge(target, keep: segments[3], other: segments[4], body: body, session: session)
        }
        if segments.count == 3, segments[2] == "new" { return save(target, id: nil, body: body, session: session) }
        if segments.count == 3, segments[2] == "import" { return importFile(target, body: body, session: session) }
        if segments.count >= 4, segments[2] == "groups" {
            let rest = segments[3] == "" ? [] : Array(segments.dropFirst(3))
            return changeGroup(target, path: rest, body: body, session: session)
        }
        return Self.notFound(signed)
    }

    /// The book a path names, among the user's.
    private static func target(named name: String, in books: [CardDAVService.Target]) -> CardDAVService.Target? {
        books.first { $0.book.name.rawValue == name }
    }

    /// The path of a book's people.
    static func bookPath(_ name: ServedBookName) -> String {
        prefix + "books/" + WebForm.encoded(name.rawValue) + "/"
    }

    // MARK: Sessions

    /// The request's session, and the cookie to set when one was opened now (a server without
    /// users opens one for any browser); `nil` when the user must sign in.
    private func session(of request: HTTPServerRequest) -> (WebSession, setCookie: String?)? {
        if let name = Self.cookie(Self.cookieName, in: request), let session = sessions.session(named: name) {
            // A session opened before the server had users does not outlive them.
            if session.user != nil || !authenticator.requiresAuthentication { return (session, nil) }
        }
        guard !authenticator.requiresAuthentication else { return nil }
        let session = sessions.open(user: nil)
        return (session, Self.cookieHeader(session.name, request: request))
    }

    /// The value of the cookie `name` the request carries.
    static func cookie(_ name: String, in request: HTTPServerRequest) -> String? {
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// The `Set-Cookie` value of a session: `Secure` when the request came over HTTPS (a
    /// proxy's `X-Forwarded-Proto` or `Forwarded: proto=https`).
    static func cookieHeader(_ value: String, request: HTTPServerRequest, maxAge: Int? = nil) -> String {
        var header = "\(cookieName)=\(value); Path=\(prefix); HttpOnly; SameSite=Strict"
        if let maxAge { header += "; Max-Age=\(maxAge)" }
        if isHTTPS(request) { header += "; Secure" }
        return header
    }

    private static func isHTTPS(_ request: HTTPServerRequest) -> Bool {
        if request.header("X-Forwarded-Proto")?.lowercased() == "https" { return true }
        return request.headers.values(for: "Forwarded").contains { $0.lowercased().contains("proto=https") }
    }

    /// `POST /web/signin`: the user name and password of the form, checked as CardDAV checks
    /// them; a new session on success.
    private func signIn(_ request: HTTPServerRequest, client: String?) -> HTTPServerResponse {
        let form = WebForm(String(decoding: request.body, as: UTF8.self))
        let user = form["user"] ?? ""
        switch authenticator.authenticate(user: user, password: form["password"] ?? "", client: client) {
        case .open:
            let session = sessions.open(user: nil)
            var response = Self.redirect(to: Self.prefix)
            response.headers.append("Set-Cookie", Self.cookieHeader(session.name, request: request))
            return response
        case .authenticated(let name):
            let session = sessions.open(user: name.rawValue)
            var response = Self.redirect(to: Self.prefix)
            response.headers.append("Set-Cookie", Self.cookieHeader(session.name, request: request))
            response.logNote = "signed in"
            return response
        case .refused(.throttled):
            var response = signInPage(status: 429, message: "Too many failed sign-ins: wait a moment and try again.")
            response.headers.append("Retry-After", String(ContactsServer.throttledRetryAfterSeconds))
            return response
        case .refused, .missing:
            return signInPage(status: 401, message: "The user name or the password is wrong.")
        }
    }

    /// `POST /web/signout`: ends the session and clears its cookie.
    private func signOut(_ session: WebSession) -> HTTPServerResponse {
        sessions.close(named: session.name)
        var response = Self.redirect(to: Self.prefix)
        response.headers.append("Set-Cookie", "\(Self.cookieName)=; Path=\(Self.prefix); HttpOnly; SameSite=Strict; Max-Age=0")
        return response
    }

    // MARK: Refusals

    /// 403 unless a `POST` carries the session's token (its origin is checked before).
    static func refuseForeignPost(_ request: HTTPServerRequest, session: WebSession) -> HTTPServerResponse? {
        let form = form(of: request)
        guard let token = form[WebForm.tokenField], ConstantTime.equals(Array(token.utf8), Array(session.formToken.utf8)) else {
            var response = HTTPServerResponse.text(403, "this form is out of date or did not come from this server: reload the page\n")
            response.logNote = "form token missing or wrong"
            return response
        }
        return nil
    }

    /// 403 when the browser says the request came from another site: `Sec-Fetch-Site` other
    /// than `same-origin` (or `none`, typed by the user), or an `Origin` whose host is not the
    /// request's `Host`.
    static func refuseForeignOrigin(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        var foreign = false
        if let site = request.header("Sec-Fetch-Site")?.lowercased(), site != "same-origin", site != "none" { foreign = true }
        if let origin = request.header("Origin") {
            let host = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
            if origin == "null" || host?.lowercased() != request.header("Host")?.lowercased() { foreign = true }
        }
        guard foreign else { return nil }
        var response = HTTPServerResponse.text(403, "refused: the request came from another site\n")
        response.logNote = "cross-origin form refused"
        return response
    }

    /// The fields of a form a request sent, URL-encoded or multipart.
    static func form(of request: HTTPServerRequest) -> WebForm {
        WebForm(body: request.body, contentType: request.header("Content-Type"))
    }

    /// 413 for a form over ``WebForm/maximumBodySize``, such as too large a file.
    static func tooLarge(for session: WebSession) -> HTTPServerResponse {
        let limit = WebForm.maximumBodySize / (1024 * 1024)
        var response = page(
            413, "Too large", signed: WebHTML.Signed(user: session.user, formToken: session.formToken),
            "<h1>Too large</h1>\n<p class=\"error\" role=\"alert\">What was sent is over \(limit) MB, the most a form takes here. "
                + "Split the file, or send a smaller photo.</p>")
        response.logNote = "form over the size limit"
        return response
    }

    static var notAllowed: HTTPServerResponse {
        var response = HTTPServerResponse.refusal(405)
        response.headers.append("Allow", "GET, HEAD, POST")
        return response
    }

    static func notFound(_ signed: WebHTML.Signed?) -> HTTPServerResponse {
        page(404, "Not found", signed: signed, "<h1>Not found</h1>\n<p>There is no such page, or it is not yours to see.</p>")
    }

    // MARK: Answers

    /// A `303 See Other` to `path`.
    static func redirect(to path: String) -> HTTPServerResponse {
        HTTPServerResponse(status: 303, headers: ["Location": path])
    }

    /// An HTML page.
    /// `page` answered 409, with `note` as an alert above its heading: a write refused because
    /// someone changed the record since the page was shown, which shows it as it is now.
    static func conflict(_ page: HTTPServerResponse, saying note: String) -> HTTPServerResponse {
        var response = page
        response.status = 409
        let alert = "<p class=\"error\" role=\"alert\">\(WebHTML.escaped(note))</p>"
        response.body = Data(String(decoding: page.body, as: UTF8.self).replacingOccurrences(of: "<h1>", with: alert + "<h1>").utf8)
        return response
    }

    static func page(_ status: Int, _ title: String, signed: WebHTML.Signed?, _ body: String) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status, headers: ["Content-Type": "text/html; charset=utf-8"],
            body: Data(WebHTML.page(title: title, signed: signed, body: body).utf8))
    }

    /// The headers every web answer carries.
    static func secure(_ response: inout HTTPServerResponse) {
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
        if response.headers["Cache-Control"] == nil { response.headers["Cache-Control"] = "no-store" }
    }
}
