import PlainContacts
import PlainContactsSystem

/// A password kept as a salted slow hash, PBKDF2-HMAC-SHA256 (RFC 8018) with a high iteration
/// count: what the accounts of `contacts serve` store instead of the password.
///
/// Its text form, as the users file keeps it, is `pbkdf2-sha256$ITERATIONS$SALT$KEY` with
/// salt and key in base64 (see ``text`` and ``init(parsing:minimumIterations:)``). The text
/// records the iteration count, so the count of new hashes can rise in a later version while
/// older hashes still verify.
///
/// ```swift
/// let hash = try PasswordHash.make(password: "correct horse battery staple")
/// hash.verify("correct horse battery staple")  // true, after one derivation
/// hash.verify("Tr0ub4dor&3")                   // false
/// ```
///
/// `==` compares plainly, not in constant time: use it on stored hashes, and ``verify(_:)``
/// for anything a client sent.
package struct PasswordHash: Sendable, Equatable, CustomStringConvertible {
    /// The key derivation function of a hash; only PBKDF2-HMAC-SHA256 so far.
    package enum Algorithm: String, Sendable, CaseIterable {
        /// PBKDF2 (RFC 8018) with HMAC-SHA256, spelled `pbkdf2-sha256` in the text form.
        case pbkdf2SHA256 = "pbkdf2-sha256"
    }

    /// The iteration count of new hashes.
    ///
    /// One verification of 200,000 iterations takes about 150 ms of one core in a release
    /// build on a shared two-core x86-64 server (a little over 0.7 µs per iteration, two
    /// SHA-256 compressions each), less on an idle or newer machine: a phone signing in waits
    /// no longer than a page load, and a burst of wrong passwords cannot take the CPU for long.
    /// OWASP's Password Storage Cheat Sheet (2023) asks for 600,000, which would take about
    /// half a second here; this count is a third of that, above the 100,000 floor below. Every
    /// hash records its own count, so raising this one later strengthens each password as it
    /// is set again (`contacts user add NAME --replace`).
    package static let defaultIterations = 200_000
    /// The lowest iteration count accepted when reading a hash: anything cheaper was not made
    /// by this program and would make a leaked file cheap to attack.
    static let minimumIterations = 100_000
    /// The highest iteration count accepted: fifty times the default, seconds of CPU per
    /// sign-in. A larger count in an edited file would let each request naming that user burn
    /// the CPU for minutes.
    static let maximumIterations = 10_000_000
    /// The salt length of new hashes: 128 bits, the least NIST SP 800-132 allows.
    static let saltCount = 16
    /// The derived key length of new hashes: one SHA-256 output, so one PBKDF2 block.
    static let derivedKeyCount = 32
    /// The salt lengths accepted when reading; RFC 8018 asks for at least eight bytes.
    static let acceptedSaltCounts = 8...64
    /// The derived key lengths accepted when reading: at most two PBKDF2 blocks, so that an
    /// edited file cannot multiply the cost of a sign-in.
    static let acceptedDerivedKeyCounts = 16...64

    /// The key derivation function.
    package let algorithm: Algorithm
    /// How many times PBKDF2 iterates HMAC.
    package let iterations: Int
    /// The random salt, unique to this hash.
    let salt: [UInt8]
    /// The key derived from the password, compared with the one derived from a candidate.
    let derivedKey: [UInt8]

    /// Wraps parts the caller has checked.
    ///
    /// ```swift
    /// let hash = PasswordHash(iterations: 200_000, salt: salt, derivedKey: key)
    /// ```
    init(algorithm: Algorithm = .pbkdf2SHA256, iterations: Int, salt: [UInt8], derivedKey: [UInt8]) {
        self.algorithm = algorithm
        self.iterations = iterations
        self.salt = salt
        self.derivedKey = derivedKey
    }

    /// Hashes `password` (its UTF-8 bytes, not normalized) with a fresh 16-byte salt from the
    /// system's random source (`getrandom` on Linux) into a 32-byte key. Takes as long as one
    /// verification.
    ///
    /// ```swift
    /// let hash = try PasswordHash.make(password: "s3cret")
    /// let quick = try PasswordHash.make(password: "s3cret", iterations: 1_000)  // tests only
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` when `iterations` is below 1 or above
    ///   ``maximumIterations``.
    static func make(password: String, iterations: Int = defaultIterations) throws(ContactsError) -> PasswordHash {
        guard (1...maximumIterations).contains(iterations) else {
            throw ContactsError(.invalidValue, "an iteration count must lie between 1 and \(maximumIterations)")
        }
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<saltCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let key = PBKDF2.deriveKey(
            password: Array(password.utf8), salt: salt, iterations: iterations, length: derivedKeyCount)
        return PasswordHash(iterations: iterations, salt: salt, derivedKey: key)
    }

    /// Whether `password` is the one this hash was made from: derives a key from it with this
    /// hash's salt and count, and compares the keys in constant time. Takes one full
    /// derivation whatever the answer.
    ///
    /// ```swift
    /// hash.verify("s3cret")  // true or false
    /// ```
    func verify(_ password: String) -> Bool {
        let candidate = PBKDF2.deriveKey(
            password: Array(password.utf8), salt: salt, iterations: max(1, iterations), length: max(1, derivedKey.count))
        return ConstantTime.equals(candidate, derivedKey)
    }

    /// The algorithm and iteration count only: the salt and key stay out of logs.
    ///
    /// ```swift
    /// print(hash)  // pbkdf2-sha256 (200000 iterations)
    /// ```
    package var description: String {
        "\(algorithm.rawValue) (\(iterations) iterations)"
    }
}
