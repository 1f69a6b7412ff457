import PlainContacts
import Synchronization

/// The web pages' signed-in sessions, kept in memory: a session ends when its user signs out,
/// after ``idleLimit`` without a request, or when the server stops.
///
/// A session is named by a random 256-bit token, which its browser keeps in an `HttpOnly;
/// SameSite=Strict` cookie; a second random token, shown only inside the session's pages,
/// must come back with every form the user sends (``WebSession/formToken``), so that a page of
/// another site cannot make the browser change anything.
///
/// ```swift
/// let sessions = WebSessions()
/// let session = sessions.open(user: "kim")
/// sessions.session(named: session.name)?.user   // "kim"
/// sessions.close(named: session.name)
/// ```
final class WebSessions: Sendable {
    /// How long a session lasts without a request: a working day.
    static let idleLimit = Duration.seconds(12 * 60 * 60)
    /// The most sessions kept at once; opening one more ends the one idle longest, so that
    /// sign-ins cannot fill the memory.
    static let capacity = 10_000

    private let table = Mutex<[String: WebSession]>([:])
    /// The clock sessions age by; tests give their own.
    private let now: @Sendable () -> ContinuousClock.Instant

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.now = now
    }

    /// Opens a session for `user` (`nil` on a server without users).
    func open(user: String?) -> WebSession {
        let session = WebSession(name: Self.randomToken(), user: user, formToken: Self.randomToken(), lastUse: now())
        table.withLock { table in
            if table.count >= Self.capacity, let idlest = table.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                table[idlest] = nil
            }
            table[session.name] = session
        }
        return session
    }

    /// The session named `name`, if it is open and was used within ``idleLimit``; its use is
    /// recorded.
    func session(named name: String) -> WebSession? {
        let instant = now()
        return table.withLock { table in
            guard var session = table[name] else { return nil }
            guard instant - session.lastUse <= Self.idleLimit else {
                table[name] = nil
                return nil
            }
            session.lastUse = instant
            table[name] = session
            return session
        }
    }

    /// Ends the session named `name`.
    func close(named name: String) {
        table.withLock { $0[name] = nil }
    }

    /// Ends every session of `user`, as when the user's account is removed.
    func close(user: String) {
        table.withLock { table in table = table.filter { $0.value.user != user } }
    }

    /// 32 random bytes as 64 hexadecimal digits.
    static func randomToken() -> String {
        PosixFileSystem.randomHex(byteCount: 32)
    }
}

/// One signed-in session of the web pages.
struct WebSession: Sendable, Equatable {
    /// The random name the session's cookie carries.
    var name: String
    /// The signed-in user; `nil` on a server without users.
    var user: String?
    /// The random token every form of the session carries.
    var formToken: String
    /// When the session was last used.
    var lastUse: ContinuousClock.Instant
}
