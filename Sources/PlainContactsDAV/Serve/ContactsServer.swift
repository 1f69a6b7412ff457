#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization
import PlainContacts

/// `contacts serve`: the store as a CardDAV server, assembled from the HTTP/1.1 server
/// (``HTTPServer``), the accounts (``ServerAuthenticator``) and the CardDAV protocol
/// (``CardDAVService``).
///
/// Every request is authenticated first when the store has users (HTTP Basic; 401 with
/// `WWW-Authenticate` otherwise, 429 when a client failed too often), then answered by the
/// CardDAV service; only `/.well-known/carddav` redirects without credentials (RFC 6764), and
/// `/health` answers `ok` to anyone (``HealthCheck``).
/// Without users, a request that came through a reverse proxy (it carries `Forwarded`,
/// `X-Forwarded-For` or `X-Script-Name`) is refused with 403: a proxy makes a loopback server
/// public, and a public server needs accounts.
///
/// Behind a reverse proxy given as trusted (`contacts serve --trusted-proxy`), a request counts
/// as the client the proxy names in `X-Forwarded-For` or `Forwarded` (``HTTPForwardedClient``):
/// its failure budget, its log line (`GET / 207 3ms (for 203.0.113.7 via 127.0.0.1)`) and the
/// requests it may have in progress at once (``ReverseProxyPolicy``; more are answered with 503
/// and `Retry-After`). From any other peer those headers change nothing.
///
/// ```swift
/// let server = try ContactsServer(storeURL: store, host: "127.0.0.1", port: 5232) { line in print(line) }
/// try server.start()
/// let watch = try server.stopOnSignals { _ in }
/// server.waitUntilStopped()
/// ```
package final class ContactsServer: Sendable {
    /// A change a client made, as the server saved it: what `--commit` records.
    package struct Change: Sendable, Hashable {
        /// `PUT` or `DELETE`; for a change made on the web pages, what was done, such as
        /// `edit Katie Bell`.
        package var method: String
        /// Whether the change was made on the web pages rather than by a CardDAV client.
        package var isWeb = false
        /// The signed-in user, `nil` without users.
        package var user: String?
        /// The client's `User-Agent`, if it sent one.
        package var userAgent: String?
        /// The book changed.
        package var book = ServedBookName.home
        /// Its store, whose repository `--commit` commits in.
        package var storeURL: URL?
        /// The files of the store the change wrote or removed, relative to its folder, sorted:
        /// while `afterChange` runs, further writes to the book wait, so the files are as this
        /// change left them.
        package var files: [String] = []
    }

    /// The headers a reverse proxy adds, which a server without users refuses.
    static let proxyHeaders = ["Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Script-Name", "X-Forwarded-Prefix"]
    /// The seconds a throttled client is told to wait.
    static let throttledRetryAfterSeconds = 2

    private let http: HTTPServer
    private let authenticator: ServerAuthenticator
    /// The reverse proxies believed, and the requests in progress of their clients.
    private let proxyPolicy: ReverseProxyPolicy
    /// The host the server listens on, as given.
    let host: String
    /// The web pages, whose people lists are made when the server starts.
    private let web: WebService
    /// Where the server says what it did when it started.
    private let log: @Sendable (String) -> Void

    /// A server for the store at `storeURL`, not yet listening, its accounts from `usersFile`
    /// (the store's own by default), believing the forwarded headers of `trustedProxies`.
    ///
    /// The server serves the store as the book `contacts`, and every other book the users file
    /// names (``ServerUsersFile/bookFolders()``) to the users granted it. It takes each
    /// store's ``CardDAVServerLock`` here, before it reads its state, and holds it for its whole
    /// life (until it is deinitialized, or the process ends): one server per store. A book
    /// granted while the server runs is opened when first asked for; `bookOpened` is told of
    /// each book other than the store when it is opened, before any write to it. The command
    /// line and other programs go on writing the stores meanwhile.
    ///
    /// `afterChange` is told of each change a client made, in the order of the changes to each
    /// book, while further writes to that book wait: it must return at once (`--commit` queues
    /// the commit and takes it off the request's path).
    ///
    /// `history` is where the web pages read each book's history (``StoreHistory``); without it
    /// they show none.
    ///
    /// A server process started by a supervisor (``Inheritance``) serves on the listening
    /// sockets it inherited instead of binding `host` and `port`, and marks its requests in the
    /// supervisor's journal.
    ///
    /// - Throws: ``ContactsError/Code/notAStore`` when there is no store there;
    ///   ``ContactsError/Code/busy`` when another `contacts serve` serves the store; the errors
    ///   of reading the store's users file and of creating the lock file.
    package convenience init(
        storeURL: URL, options: AddressBookOptions = AddressBookOptions(), usersFile: ServerUsersFile? = nil, host: String,
        port: UInt16, trustedProxies: TrustedProxies = TrustedProxies(), log: @escaping @Sendable (String) -> Void,
        afterChange: (@Sendable (Change) -> Void)? = nil, bookOpened: (@Sendable (URL) -> Void)? = nil,
        inheritance: Inheritance? = nil, history: (any StoreHistory)? = nil
    ) throws {
        try self.init(
            storeURL: storeURL, options: options, usersFile: usersFile ?? ServerUsersFile(storeURL: storeURL), host: host,
            port: port, limits: HTTPServerLimits(), proxyPolicy: ReverseProxyPolicy(trustedProxies: trustedProxies), log: log,
            afterChange: afterChange, bookOpened: bookOpened, inheritance: inheritance, history: history)
    }

    /// A server with chosen limits, for tests. The trusted proxies are exempt from the
    /// per-address connection cap, as loopback is; when idle connections must be dropped for
    /// new ones, a proxy's are counted as held by the clients its last requests named.
    init(
        storeURL: URL, options: AddressBookOptions, usersFile: ServerUsersFile, host: String, port: UInt16,
        limits: HTTPServerLimits, proxyPolicy: ReverseProxyPolicy = ReverseProxyPolicy(),
        log: @escaping @Sendable (String) -> Void, afterChange: (@Sendable (Change) -> Void)?,
        bookOpened: (@Sendable (URL) -> Void)? = nil, inheritance: Inheritance? = nil, history: (any StoreHistory)? = nil
    ) throws {
        let authenticator = try ServerAuthenticator(usersFile: usersFile)
        var afterWrite: (@Sendable (CardDAVWrite) -> Void)?
        if let afterChange {
            afterWrite = { write in
                afterChange(
                    Change(
                        method: write.method, isWeb: write.isWeb, user: write.user, userAgent: write.userAgent,
                        book: write.book, storeURL: write.storeURL, files: write.files))
            }
        }
        var opened: (@Sendable (CardDAVServedBook) -> Void)?
        if let bookOpened { opened = { book in bookOpened(book.layout.root) } }
        let service = try CardDAVService(
            storeURL: storeURL, options: options, folders: { try usersFile.bookFolders() }, afterWrite: afterWrite,
            opened: opened, exclusive: true, log: log)
        // A book that cannot be served is said when the server starts; one granted later is
        // opened when first asked for.
        try service.openBooks()
        let web = WebService(service: service, authenticator: authenticator, history: history, log: log)
        self.authenticator = authenticator
        self.web = web
        self.log = log
        self.proxyPolicy = proxyPolicy
        self.host = host
        var limits = limits
        limits.unlimitedRanges += proxyPolicy.trustedProxies.ranges
        let crashPath = inheritance?.crashPath
        http = HTTPServer(
            host: host, port: port, limits: limits, trustedProxies: proxyPolicy.trustedProxies,
            adopting: inheritance?.listeningDescriptors ?? [], journal: inheritance?.journal, log: log
        ) { request in
            if let crashPath, request.path == crashPath {
                fatalError("\(Inheritance.crashPathVariable) asked for a crash at \(crashPath)")
            }
            return Self.respond(
                to: request, service: service, authenticator: authenticator, web: web, proxyPolicy: proxyPolicy, log: log)
        }
    }

    /// Whether requests need a user name and password: the store has, or had, accounts.
    package var requiresAuthentication: Bool { authenticator.requiresAuthentication }

    /// The reverse proxies whose forwarded headers name the client.
    var trustedProxies: TrustedProxies { proxyPolicy.trustedProxies }

    /// The port the server listens on (the one chosen by the system when 0 was asked for).
    package var port: Int { Int(http.port) }

    /// Takes the address, makes each book's people list for the web pages
    /// (``WebService/prepareLists()``), then starts serving, on threads of its own: the server
    /// is ready when this returns, and the first list page finds its list made. A client that
    /// connects while the lists are made waits in the listen queue. How long the lists took is
    /// logged (`web: people lists of 10000 people made in 61 ms, before the first request`):
    /// after a restart the list kept on disk is caught up with what changed meanwhile; on the
    /// first start of a store, the collection's first listing of every card and the list made
    /// from the book.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` for a host that is not an IP address or
    ///   `localhost`; ``ContactsError/Code/busy`` when the address is in use;
    ///   ``ContactsError/Code/permissionDenied`` for a port the process may not take;
    ///   ``ContactsError/Code/io`` for other failures.
    package func start() throws {
        let (web, log) = (self.web, self.log)
        do {
            try http.start {
                let started = ContinuousClock.now
                let people = web.prepareLists()
                let took = (ContinuousClock.now - started).components
                let milliseconds = took.seconds * 1000 + took.attoseconds / 1_000_000_000_000_000
                log("web: people lists of \(people) people made in \(milliseconds) ms, before the first request")
            }
        } catch {
            throw Self.contactsError(error, host: host)
        }
    }

    /// Stops the server when the process gets `SIGINT` or `SIGTERM`, finishing the requests
    /// in progress; `onSignal` is called first, on a thread of its own. Keep the returned watch
    /// until the server stopped.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the signals cannot be watched.
    package func stopOnSignals(_ onSignal: @escaping @Sendable (Int32) -> Void) throws -> SignalWatch {
        do {
            return SignalWatch(watch: try HTTPServerSignalWatch(server: http, onSignal: onSignal))
        } catch {
            throw ContactsError(.io, "cannot watch for SIGINT and SIGTERM: \(error.message)")
        }
    }

    /// A running watch for the signals that stop the server; released, it gives the signals
    /// back their previous handlers.
    package struct SignalWatch: Sendable {
        fileprivate let watch: HTTPServerSignalWatch

        /// Stops watching.
        package func cancel() { watch.cancel() }
    }

    /// Stops accepting requests and ends the server once the requests in progress are answered.
    func stop() { http.stop() }

    /// Waits until the server has stopped, and the people lists that wait to be kept for the
    /// next start are written.
    package func waitUntilStopped() {
        http.waitUntilStopped()
        web.listFiles.flush()
    }

    /// Whether `host` names only this machine: `localhost`, 127.0.0.0/8 or `::1`.
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    // MARK: Requests

    /// Answers one request: works out its client, authenticates it, then lets the service
    /// answer it.
    ///
    /// A request without credentials on a server that requires them is 401 with
    /// `WWW-Authenticate`, except what ``CardDAVService/unauthenticatedResponse(to:)`` answers
    /// (the redirect of `/.well-known/carddav`).
    ///
    /// ```swift
    /// let response = ContactsServer.respond(to: request, service: service, authenticator: authenticator) { _ in }
    /// ```
    static func respond(
        to request: HTTPServerRequest, service: CardDAVService, authenticator: ServerAuthenticator, web: WebService? = nil,
        proxyPolicy: ReverseProxyPolicy = ReverseProxyPolicy(), log: @Sendable (String) -> Void
    ) -> HTTPServerResponse {
        let client = proxyPolicy.client(of: request, log: log)
        guard proxyPolicy.enter(client) else {
            var response = HTTPServerResponse.refusal(503)
            response.headers.append("Retry-After", String(HTTPServer.busyRetryAfterSeconds))
            response.logNote = (client.logNote.map { $0 + ", " } ?? "") + "too many requests in progress from one client"
            return response
        }
        defer { proxyPolicy.leave(client) }
        if let health = HealthCheck.response(to: request) { return health }
        if let web, WebService.handles(request.path) {
            reloadAccounts(authenticator, log: log)
            if !authenticator.requiresAuthentication, let refusal = proxyRefusal(request) { return refusal }
            var response = web.respond(to: request, client: client.address)
            response.logNote = client.logNote.map { note in response.logNote.map { "\(note), \($0)" } ?? note } ?? response.logNote
            return response
        }
        var response = authenticatedResponse(to: request, client: client, service: service, authenticator: authenticator, log: log)
        response.logNote = client.logNote
        return response
    }

    /// Answers a request from `client` once its credentials are checked.
    private static func authenticatedResponse(
        to request: HTTPServerRequest, client: HTTPForwardedClient, service: CardDAVService,
        authenticator: ServerAuthenticator, log: @Sendable (String) -> Void
    ) -> HTTPServerResponse {
        reloadAccounts(authenticator, log: log)
        let user: String?
        switch authenticator.authenticate(authorizationHeader: request.header("Authorization"), client: client.address) {
        case .open:
            if let refusal = proxyRefusal(request) { return refusal }
            user = nil
        case .authenticated(let name):
            user = name.rawValue
        case .missing:
            if let redirect = CardDAVService.unauthenticatedResponse(to: request) { return redirect }
            return challengeResponse
        case .refused(.malformed), .refused(.wrongCredentials):
            return challengeResponse
        case .refused(.throttled):
            var response = HTTPServerResponse.refusal(429)
            response.headers.append("Retry-After", String(throttledRetryAfterSeconds))
            return response
        }
        return service.respond(to: request, user: user, books: authenticator.books(of: user))
    }

    /// Reads the users file again if it changed.
    private static func reloadAccounts(_ authenticator: ServerAuthenticator, log: @Sendable (String) -> Void) {
        do {
            _ = try authenticator.reloadIfChanged()
        } catch {
            // The accounts as last read stay in force; the file's problem is logged once per change.
            log("users file: \(error)")
        }
    }

    /// The 403 of a server without users for a request that came through a proxy; `nil` for
    /// one that did not.
    private static func proxyRefusal(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        guard let proxyHeader = proxyHeaders.first(where: { request.header($0) != nil }) else { return nil }
        var response = HTTPServerResponse.text(
            403, "this server has no users and refuses requests through a proxy (\(proxyHeader)); "
                + "add one with `contacts user add NAME`\n")
        response.headers.append("Connection", "close")
        return response
    }

    /// The 401 that asks for credentials.
    private static var challengeResponse: HTTPServerResponse {
        var response = HTTPServerResponse.refusal(401)
        response.headers.append("WWW-Authenticate", ServerAuthenticator.challenge)
        return response
    }

    static func contactsError(_ error: HTTPServerError, host: String) -> ContactsError {
        switch error.code {
        case .invalidHost:
            return ContactsError(.invalidValue, "cannot listen on \"\(host)\": give an IP address or localhost (\(error.message))")
        case .listenFailed where error.underlying?.errno == EADDRINUSE:
            return ContactsError(.busy, "\(error.message): another program listens there; choose another port with --listen")
        case .listenFailed where error.underlying?.errno == EACCES:
            return ContactsError(.permissionDenied, "\(error.message): ports below 1024 need privileges; use a higher one")
        default:
            return ContactsError(.io, error.message)
        }
    }
}
