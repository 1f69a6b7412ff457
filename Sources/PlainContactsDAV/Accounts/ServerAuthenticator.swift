import Dispatch
import FoundationEssentials
import PlainContactsSystem
import Synchronization
import PlainContacts

/// Checks the HTTP Basic credentials of each request to `contacts serve` against the accounts,
/// cheaply for a client that signed in already and at bounded cost for everyone else.
///
/// - With no account, and none since the authenticator was made, every request is
///   ``Outcome/open``: the server then listens on loopback only. Once there was an account,
///   every request needs credentials, even if the accounts are all removed meanwhile (nobody
///   can then sign in): removing the users file never opens the server.
/// - A right password is verified once with the full derivation of its ``PasswordHash``; the
///   authenticator then remembers, per user, an HMAC of the password under a key drawn at
///   random for this process (never the password). Later requests with the same user and
///   password, such as every request of a client that keeps its connection open, are accepted
///   by comparing that HMAC in constant time, in microseconds. The HMAC covers the stored
///   hash too, so a new password makes the remembered one useless.
/// - Anything else (a wrong password, another password than the remembered one, an unknown
///   user) costs a full derivation, an unknown user's against a dummy hash with as many
///   iterations as the costliest account, so that the time taken does not tell which names
///   exist.
/// - Derivations are rationed three times. Per user name as sent and client address, a
///   ``FailureBudget`` of failures (five, then one every two seconds), so that a phone with a
///   stale password throttles only itself: not another user, nor the same user on another
///   client. Per client address, whatever the user names, a larger one (twenty, then one a
///   second), so that one address trying many names still gets few guesses; it comes back
///   twice as fast as a name's, so that one stale password alone never spends it. For all
///   clients together, a fixed number of derivations at once (half the cores), for which a
///   request waits at most five seconds. Refused that way, a request gets
///   ``Refusal/throttled`` without a derivation; clients already remembered are never
///   throttled.
///
/// ```swift
/// let authenticator = try ServerAuthenticator(usersFile: ServerUsersFile(storeURL: storeURL))
/// switch authenticator.authenticate(authorizationHeader: request.header("Authorization"), client: peerAddress) {
/// case .open, .authenticated: serve(request)
/// case .missing, .refused(.malformed), .refused(.wrongCredentials):
///     reply(401, headers: ["WWW-Authenticate": ServerAuthenticator.challenge])
/// case .refused(.throttled):
///     reply(429, headers: ["Retry-After": "2"])
/// }
/// ```
final class ServerAuthenticator: Sendable {
    /// The result of checking one request's credentials.
    enum Outcome: Sendable, Equatable {
        /// There is no account: the request needs no credentials (whatever it sent).
        case open
        /// The password is right for this user.
        case authenticated(ServerUserName)
        /// The request has no `Authorization` header (or a blank one): ask for credentials
        /// (401 with ``ServerAuthenticator/challenge``).
        case missing
        /// The credentials are not accepted, for the given reason (for logs, not for clients).
        case refused(Refusal)
    }

    /// Why credentials were refused.
    enum Refusal: Sendable, Equatable {
        /// The header is not Basic authentication, not valid base64 or UTF-8, has no colon, or
        /// the user name breaks ``ServerUserName``'s rules; no derivation was spent.
        case malformed
        /// The user is unknown or the password wrong (not told apart, on purpose).
        case wrongCredentials
        /// The client failed too often lately, or the server is busy verifying other
        /// passwords; the password was not checked. Worth a retry after a few seconds.
        case throttled
    }

    /// The value of the `WWW-Authenticate` header of a 401 answer: Basic authentication, with
    /// user names and passwords in UTF-8 (RFC 7617).
    static let challenge = #"Basic realm="contacts", charset="UTF-8""#

    /// How long a request waits for a derivation slot before it is throttled: longer than a
    /// few derivations queued ahead, shorter than a client's request timeout.
    static let standardDerivationWait = Duration.seconds(5)
    /// How many derivations run at once by default: half the cores (at least one), so that a
    /// flood of wrong passwords leaves the other half to the clients signed in.
    static var standardDerivationSlots: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / 2) }
    /// The failures allowed per client address, whatever the user names: a burst of 20 (four
    /// names' bursts), then one a second, twice the rate of ``FailureBudget/standardRefillPerSecond``
    /// so that one client retrying a stale password never spends it; 86,400 guesses a day per
    /// address at most, about 15% of a core.
    static let standardClientFailureBudget = FailureBudget(capacity: 20, refillPerSecond: 1)
    /// The length of the random key under which verified passwords are remembered.
    private static let cacheKeyCount = 32

    /// What changes while the server runs, guarded by ``state``.
    private struct State: Sendable {
        /// The accounts' hashes, by name.
        var hashes: [ServerUserName: PasswordHash]
        /// The accounts' books, by name: ``ServerGrant/standard`` for a name not here.
        var books: [ServerUserName: [ServerGrant]] = [:]
        /// The hash unknown users are checked against, as costly as the costliest account.
        var dummy: PasswordHash
        /// Whether requests need credentials: there is, or was, an account.
        var requiresAuthentication: Bool
        /// Per user, the HMAC of the last password verified for them (see ``cacheTag``).
        var verified: [ServerUserName: [UInt8]] = [:]
        /// The allowance of failed derivations of each user name as sent from each client
        /// (keyed by ``budgetKey(user:client:)``).
        var budgets: FailureBudgetTable
        /// The allowance of failed derivations of each client, whatever the user names.
        var clientBudgets: FailureBudgetTable
        /// The users file as last read, to notice a change (see ``reloadIfChanged()``).
        var fileSignature: FileSignature?
        /// The users file as last found unreadable, so that it is not read again until it
        /// changes.
        var failedSignature: FileSignature?
    }

    /// The mutable state, shared by all request threads.
    private let state: Mutex<State>
    /// The derivations that may run at once.
    private let derivationSlots: DispatchSemaphore
    /// How long a request waits for a derivation slot.
    private let derivationWait: Duration
    /// The per-process random key of the remembered HMACs.
    private let cacheKey: [UInt8]
    /// The clock of the failure budgets; tests supply their own.
    private let now: @Sendable () -> ContinuousClock.Instant
    /// The file the accounts come from, if any, for ``reloadIfChanged()``.
    private let usersFile: ServerUsersFile?

    /// An authenticator for the accounts of `usersFile`, as they are now.
    ///
    /// ```swift
    /// let authenticator = try ServerAuthenticator(usersFile: ServerUsersFile(storeURL: storeURL))
    /// authenticator.requiresAuthentication  // false when the store has no user
    /// ```
    ///
    /// - Throws: the errors of ``ServerUsersFile/accounts()``: a users file that exists
    ///   but cannot be read, or holds something else than accounts.
    convenience init(usersFile: ServerUsersFile) throws {
        let signature = FileSignature.of(usersFile.fileURL.path(percentEncoded: false))
        let (hashes, books) = Self.tables(of: try usersFile.accounts())
        self.init(
            passwordHashes: hashes, books: books, usersFile: usersFile, fileSignature: signature,
            clientFailureBudget: Self.standardClientFailureBudget)
    }

    /// The accounts' hashes and books, by name.
    private static func tables(of accounts: [ServerAccount])
        -> (hashes: [ServerUserName: PasswordHash], books: [ServerUserName: [ServerGrant]])
    {
        (Dictionary(uniqueKeysWithValues: accounts.map { ($0.name, $0.passwordHash) }),
            Dictionary(uniqueKeysWithValues: accounts.map { ($0.name, $0.books) }))
    }

    /// An authenticator for the given accounts, with the standard limits; it has no file to
    /// reload.
    ///
    /// ```swift
    /// let authenticator = ServerAuthenticator(passwordHashes: [try ServerUserName("kim"): hash])
    /// ```
    convenience init(passwordHashes: [ServerUserName: PasswordHash]) {
        self.init(passwordHashes: passwordHashes, usersFile: nil, clientFailureBudget: Self.standardClientFailureBudget)
    }

    /// An authenticator with chosen limits and clock, for tests. `failureBudget` is per user
    /// name and client; `clientFailureBudget` per client, the same as `failureBudget` when
    /// `nil`.
    init(
        passwordHashes: [ServerUserName: PasswordHash], books: [ServerUserName: [ServerGrant]] = [:], usersFile: ServerUsersFile?,
        fileSignature: FileSignature? = nil,
        failureBudget: FailureBudget = FailureBudget(), clientFailureBudget: FailureBudget? = nil,
        derivationSlots: Int = standardDerivationSlots,
        derivationWait: Duration = standardDerivationWait,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        var generator = SystemRandomNumberGenerator()
        cacheKey = (0..<Self.cacheKeyCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        state = Mutex(
            State(
                hashes: passwordHashes, books: books, dummy: Self.dummyHash(for: passwordHashes, replacing: nil),
                requiresAuthentication: !passwordHashes.isEmpty, budgets: FailureBudgetTable(template: failureBudget),
                clientBudgets: FailureBudgetTable(template: clientFailureBudget ?? failureBudget),
                fileSignature: fileSignature))
        self.derivationSlots = DispatchSemaphore(value: max(1, derivationSlots))
        self.derivationWait = derivationWait
        self.now = now
        self.usersFile = usersFile
    }

    /// Whether requests need credentials: there is an account, or there was one since the
    /// authenticator was made.
    ///
    /// ```swift
    /// if !authenticator.requiresAuthentication && !address.isLoopback { refuse to start }
    /// ```
    var requiresAuthentication: Bool {
        state.withLock { $0.requiresAuthentication }
    }

    /// Checks the value of a request's `Authorization` header (`nil` when it has none).
    /// `client` names where the request comes from (the peer's address without its port, or
    /// the client a trusted proxy forwarded the request for); with the user name it keys the
    /// failure budgets. Requests without one share the budgets of an empty address.
    ///
    /// Takes microseconds for a remembered password, one derivation (about 150 ms) otherwise,
    /// plus the wait for a derivation slot when others are running.
    ///
    /// ```swift
    /// authenticator.authenticate(authorizationHeader: "Basic a2ltOnMzY3JldA==", client: "192.0.2.7")
    /// // .authenticated(kim), or .refused(.wrongCredentials)
    /// authenticator.authenticate(authorizationHeader: nil, client: "192.0.2.7")  // .missing
    /// ```
    func authenticate(authorizationHeader: String?, client: String? = nil) -> Outcome {
        guard requiresAuthentication else { return .open }
        guard let header = authorizationHeader, header.contains(where: { !$0.isWhitespace }) else {
            return .missing
        }
        guard let credentials = BasicCredentials(authorizationHeader: header) else { return .refused(.malformed) }
        return authenticate(user: credentials.user, password: credentials.password, client: client)
    }

    /// Checks a user name and password given another way than in an `Authorization` header (the
    /// web pages' sign-in form), with the same failure budgets and cost as
    /// ``authenticate(authorizationHeader:client:)``.
    ///
    /// ```swift
    /// authenticator.authenticate(user: "kim", password: "s3cret", client: "192.0.2.7")   // .authenticated(kim)
    /// ```
    func authenticate(user name: String, password: String, client: String? = nil) -> Outcome {
        guard requiresAuthentication else { return .open }
        guard let user = try? ServerUserName(name) else { return .refused(.malformed) }
        let credentials = (user: name, password: password)
        let (known, dummy, remembered) = state.withLock { state in
            (state.hashes[user], state.dummy, state.verified[user])
        }
        let hash = known ?? dummy
        let tag = cacheTag(password: credentials.password, hash: hash)
        if known != nil, let remembered, ConstantTime.equals(tag, remembered) {
            return .authenticated(user)
        }
        let clientKey = client ?? ""
        let userKey = Self.budgetKey(user: user, client: clientKey)
        let instant = now()
        let allowed = state.withLock { state in
            guard state.clientBudgets.take(for: clientKey, at: instant) else { return false }
            guard state.budgets.take(for: userKey, at: instant) else {
                state.clientBudgets.refund(for: clientKey)
                return false
            }
            return true
        }
        guard allowed else { return .refused(.throttled) }
        guard derivationSlots.wait(timeout: .now() + .nanoseconds(Int(derivationWait / .nanoseconds(1)))) == .success
        else {
            return .refused(.throttled)
        }
        // Derive for unknown users too, and use the result, so that both cost the same.
        let isRight = hash.verify(credentials.password)
        derivationSlots.signal()
        guard isRight, let known else { return .refused(.wrongCredentials) }
        state.withLock { state in
            state.budgets.refund(for: userKey)
            state.clientBudgets.refund(for: clientKey)
            if state.hashes[user] == known {
                state.verified[user] = tag
            }
        }
        return .authenticated(user)
    }

    /// Reads the users file again if it changed since it was last read (another inode, size
    /// or time), so that `contacts user add` and `user rm` take effect while the server runs.
    /// Cheap when nothing changed: one `lstat`. A file that cannot be read is reported once per
    /// change, and the accounts read before stay in force.
    ///
    /// ```swift
    /// do { try authenticator.reloadIfChanged() } catch { log(error) }
    /// ```
    ///
    /// - Returns: whether the accounts were read again.
    /// - Throws: the errors of ``ServerUsersFile/accounts()``.
    @discardableResult
    func reloadIfChanged() throws -> Bool {
        guard let usersFile else { return false }
        let signature = FileSignature.of(usersFile.fileURL.path(percentEncoded: false))
        let isUnchanged = state.withLock { state in
            state.fileSignature == signature || (signature != nil && state.failedSignature == signature)
        }
        if isUnchanged { return false }
        let accounts: [ServerAccount]
        do {
            accounts = try usersFile.accounts()
        } catch {
            state.withLock { $0.failedSignature = signature }
            throw error
        }
        let (hashes, books) = Self.tables(of: accounts)
        replaceAccounts(hashes, books: books, fileSignature: signature)
        return true
    }

    /// The books of `user` in the order its home lists them; those of a server without users
    /// (`nil`) are ``ServerGrant/standard``.
    ///
    /// ```swift
    /// authenticator.books(of: "kim")   // [contacts (read-write), family (read)]
    /// ```
    func books(of user: String?) -> [ServerGrant] {
        guard let user, let name = try? ServerUserName(user) else { return ServerGrant.standard }
        return state.withLock { $0.books[name] } ?? ServerGrant.standard
    }

    /// Replaces the accounts; remembered passwords of removed users or changed hashes are
    /// forgotten.
    ///
    /// ```swift
    /// authenticator.replaceAccounts(try usersFile.passwordHashes())
    /// ```
    func replaceAccounts(_ hashes: [ServerUserName: PasswordHash], books: [ServerUserName: [ServerGrant]] = [:]) {
        replaceAccounts(hashes, books: books, fileSignature: nil)
    }

    /// Replaces the accounts and records the signature of the file they come from.
    private func replaceAccounts(
        _ hashes: [ServerUserName: PasswordHash], books: [ServerUserName: [ServerGrant]], fileSignature: FileSignature?
    ) {
        state.withLock { state in
            state.verified = state.verified.filter { name, _ in hashes[name] != nil && hashes[name] == state.hashes[name] }
            state.hashes = hashes
            state.books = books
            state.dummy = Self.dummyHash(for: hashes, replacing: state.dummy)
            state.requiresAuthentication = state.requiresAuthentication || !hashes.isEmpty
            state.fileSignature = fileSignature
            state.failedSignature = nil
        }
    }

    /// The key of the failure budget of `user` from `client`: the name, a space (which names
    /// never hold) and the address.
    static func budgetKey(user: ServerUserName, client: String) -> String {
        user.rawValue + " " + client
    }

    /// The HMAC remembered for a verified password: keyed by the per-process key, over the
    /// stored derived key (so that it dies with the hash) followed by the password's bytes.
    private func cacheTag(password: String, hash: PasswordHash) -> [UInt8] {
        HMACSHA256.authenticationCode(key: cacheKey, message: hash.derivedKey + Array(password.utf8))
    }

    /// A hash no password matches in practice: the iteration count and key length of the
    /// costliest account, a zero salt and key. With no account it keeps the cost of the
    /// `previous` dummy, or takes the default count, so that removing every account does not
    /// change how long a refusal takes.
    static func dummyHash(for hashes: [ServerUserName: PasswordHash], replacing previous: PasswordHash?) -> PasswordHash {
        let costliest = hashes.values.max { ($0.iterations, $0.derivedKey.count) < ($1.iterations, $1.derivedKey.count) }
        let model = costliest ?? previous
        return PasswordHash(
            iterations: model?.iterations ?? PasswordHash.defaultIterations,
            salt: [UInt8](repeating: 0, count: PasswordHash.saltCount),
            derivedKey: [UInt8](repeating: 0, count: model?.derivedKey.count ?? PasswordHash.derivedKeyCount))
    }
}
