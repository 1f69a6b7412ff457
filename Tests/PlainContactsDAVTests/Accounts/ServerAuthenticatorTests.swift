import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Iteration counts cheap enough for a debug build.
private let testIterations = 1_000

/// Accounts for kim ("engine") and lee ("cobol").
private func accounts() throws -> [ServerUserName: PasswordHash] {
    [
        try ServerUserName("kim"): try PasswordHash.make(password: "engine", iterations: testIterations),
        try ServerUserName("lee"): try PasswordHash.make(password: "cobol", iterations: testIterations),
    ]
}

/// An authenticator over `hashes` whose failure budgets run on `clock`.
private func authenticator(
    _ hashes: [ServerUserName: PasswordHash]? = nil, clock: ManualClock = ManualClock(),
    capacity: Int = FailureBudget.standardCapacity, usersFile: ServerUsersFile? = nil
) throws -> ServerAuthenticator {
    ServerAuthenticator(
        passwordHashes: try hashes ?? accounts(), usersFile: usersFile,
        failureBudget: FailureBudget(capacity: capacity, refillPerSecond: 1), now: { clock.now })
}

/// The name `text`, known to be valid.
private func name(_ text: String) throws -> ServerUserName {
    try ServerUserName(text)
}

@Suite struct ServerAuthenticatorTests {
    @Test func withoutAccountsEveryRequestIsOpen() throws {
        let open = try authenticator([:])

        #expect(!open.requiresAuthentication)
        #expect(open.authenticate(authorizationHeader: nil) == .open)
        #expect(open.authenticate(authorizationHeader: basicHeader("kim", "anything")) == .open)
    }

    @Test func rightPasswordAuthenticates() throws {
        let authenticator = try authenticator()

        #expect(authenticator.requiresAuthentication)
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .authenticated(try name("kim")))
    }

    @Test func wrongPasswordIsRefused() throws {
        let authenticator = try authenticator()

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "cobol")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine ")) == .refused(.wrongCredentials))
    }

    @Test func unknownUserIsRefusedLikeAWrongPassword() throws {
        let authenticator = try authenticator()

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("alan", "engine")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("Kim", "engine")) == .refused(.wrongCredentials))
    }

    @Test("no or a blank header is missing credentials", arguments: [nil, "", "  \t"] as [String?])
    func absentHeaderIsMissing(header: String?) throws {
        #expect(try authenticator().authenticate(authorizationHeader: header) == .missing)
    }

    @Test(
        "malformed headers are refused without a derivation",
        arguments: ["Bearer abc", "Basic !!!", "Basic a2lt", basicHeader("..", "engine"), basicHeader("k m", "engine")])
    func malformedHeaderIsRefused(header: String) throws {
        let authenticator = try authenticator(capacity: 1)

        #expect(authenticator.authenticate(authorizationHeader: header) == .refused(.malformed))
        // The single token is still there: no derivation was spent.
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "wrong")) == .refused(.wrongCredentials))
    }

    @Test func aRememberedPasswordIsAcceptedWithoutADerivation() throws {
        let authenticator = try authenticator(capacity: 1)
        let kim = try name("kim")

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .authenticated(kim))
        // Spend the only token on a failure: any further derivation is refused.
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "wrong")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("lee", "cobol")) == .refused(.throttled))
        // The remembered password needs none.
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .authenticated(kim))
    }

    @Test func anotherPasswordThanTheRememberedOneIsVerifiedAndRefused() throws {
        let authenticator = try authenticator()
        _ = authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"))

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine2")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("lee", "engine")) == .refused(.wrongCredentials))
    }

    @Test func aChangedPasswordRefusesTheRememberedOne() throws {
        let authenticator = try authenticator()
        let kim = try name("kim")
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .authenticated(kim))

        var hashes = try accounts()
        hashes[kim] = try PasswordHash.make(password: "difference", iterations: testIterations)
        authenticator.replaceAccounts(hashes)

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "difference")) == .authenticated(kim))
    }

    @Test func aRemovedUserIsRefusedEvenWhenRemembered() throws {
        let authenticator = try authenticator()
        _ = authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"))

        authenticator.replaceAccounts(try accounts().filter { $0.key.rawValue != "kim" })

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .refused(.wrongCredentials))
    }

    @Test func removingEveryAccountKeepsRequiringCredentials() throws {
        let authenticator = try authenticator()
        _ = authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"))

        authenticator.replaceAccounts([:])

        #expect(authenticator.requiresAuthentication)
        #expect(authenticator.authenticate(authorizationHeader: nil) == .missing)
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .refused(.wrongCredentials))
    }

    @Test func anAccountAddedLaterEndsOpenAccess() throws {
        let authenticator = try authenticator([:])

        authenticator.replaceAccounts(try accounts())

        #expect(authenticator.requiresAuthentication)
        #expect(authenticator.authenticate(authorizationHeader: nil) == .missing)
    }

    @Test func failuresBeyondTheBudgetAreThrottledUntilTokensComeBack() throws {
        let clock = ManualClock()
        let authenticator = try authenticator(clock: clock, capacity: 2)

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "x")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("lee", "y")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "z")) == .refused(.throttled))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .refused(.throttled))
        clock.advance(by: .seconds(1))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .authenticated(try name("kim")))
    }

    @Test func eachClientHasItsOwnBudget() throws {
        let authenticator = try authenticator(capacity: 1)

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "x"), client: "192.0.2.1") == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "y"), client: "192.0.2.1") == .refused(.throttled))
        #expect(
            authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"), client: "192.0.2.2")
                == .authenticated(try name("kim")))
    }

    @Test func aStaleClientThrottlesNeitherAnotherUserNorTheSameUserElsewhere() throws {
        let clock = ManualClock()
        let authenticator = ServerAuthenticator(
            passwordHashes: try accounts(), usersFile: nil, failureBudget: FailureBudget(capacity: 2, refillPerSecond: 1),
            clientFailureBudget: FailureBudget(capacity: 10, refillPerSecond: 1), now: { clock.now })
        let stale = (0..<3).map { _ in authenticator.authenticate(authorizationHeader: basicHeader("kim", "old"), client: "192.0.2.1") }

        #expect(stale == [.refused(.wrongCredentials), .refused(.wrongCredentials), .refused(.throttled)])
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"), client: "192.0.2.1") == .refused(.throttled))
        #expect(
            authenticator.authenticate(authorizationHeader: basicHeader("lee", "cobol"), client: "192.0.2.1")
                == .authenticated(try name("lee")))
        #expect(
            authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"), client: "192.0.2.2")
                == .authenticated(try name("kim")))
    }

    @Test func manyUserNamesFromOneClientShareItsLargerBudget() throws {
        let clock = ManualClock()
        let authenticator = ServerAuthenticator(
            passwordHashes: try accounts(), usersFile: nil, failureBudget: FailureBudget(capacity: 2, refillPerSecond: 1),
            clientFailureBudget: FailureBudget(capacity: 3, refillPerSecond: 1), now: { clock.now })
        let guesses = ["ann", "bob", "cy", "dee"].map { user in
            authenticator.authenticate(authorizationHeader: basicHeader(user, "guess"), client: "192.0.2.1")
        }

        #expect(guesses == [.refused(.wrongCredentials), .refused(.wrongCredentials), .refused(.wrongCredentials), .refused(.throttled)])
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"), client: "192.0.2.1") == .refused(.throttled))
        #expect(
            authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"), client: "192.0.2.2")
                == .authenticated(try name("kim")))
        clock.advance(by: .seconds(1))
        #expect(
            authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine"), client: "192.0.2.1")
                == .authenticated(try name("kim")))
    }

    @Test func theStandardBudgetsLetOneStaleClientNeverSpendItsAddresssBudget() {
        let name = FailureBudget()
        let client = ServerAuthenticator.standardClientFailureBudget

        #expect(client.capacity >= 2 * name.capacity)
        #expect(client.refillPerSecond > name.refillPerSecond)
    }

    @Test func aSuccessfulVerificationDoesNotUseTheBudget() throws {
        let authenticator = try authenticator(capacity: 1)

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .authenticated(try name("kim")))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("lee", "cobol")) == .authenticated(try name("lee")))
    }

    @Test func anUnknownUserSpendsADerivation() throws {
        let authenticator = try authenticator(capacity: 1)

        #expect(authenticator.authenticate(authorizationHeader: basicHeader("alan", "turing")) == .refused(.wrongCredentials))
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .refused(.throttled))
    }

    @Test func theDummyHashIsAsCostlyAsTheCostliestAccount() throws {
        var hashes = try accounts()
        hashes[try name("max")] = PasswordHash(
            iterations: 300_000, salt: [UInt8](repeating: 1, count: 16), derivedKey: [UInt8](repeating: 2, count: 48))

        let dummy = ServerAuthenticator.dummyHash(for: hashes, replacing: nil)
        #expect(dummy.iterations == 300_000)
        #expect(dummy.derivedKey.count == 48)
        #expect(ServerAuthenticator.dummyHash(for: [:], replacing: nil).iterations == PasswordHash.defaultIterations)
        #expect(ServerAuthenticator.dummyHash(for: [:], replacing: dummy) == dummy)
    }

    @Test func concurrentRequestsAreAllAnswered() async throws {
        let authenticator = try authenticator(capacity: 100)
        let kim = try name("kim")
        let outcomes = await withTaskGroup(of: ServerAuthenticator.Outcome.self) { group in
            for index in 0..<16 {
                group.addTask {
                    authenticator.authenticate(authorizationHeader: basicHeader("kim", index % 2 == 0 ? "engine" : "wrong"))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(outcomes.filter { $0 == .authenticated(kim) }.count == 8)
        #expect(outcomes.filter { $0 == .refused(.wrongCredentials) }.count == 8)
    }

    @Test func theChallengeAsksForBasicAuthenticationInUTF8() {
        #expect(ServerAuthenticator.challenge.hasPrefix("Basic realm="))
        #expect(ServerAuthenticator.challenge.contains(#"charset="UTF-8""#))
    }
}

extension TemporaryStore {
    /// The accounts of the store, with test iteration counts.
    fileprivate var accountsFile: ServerUsersFile {
        ServerUsersFile(storeURL: storeURL, hashIterations: testIterations, minimumIterations: testIterations)
    }
}

/// A temporary store folder; no manifest is needed.
private func makeStoreFolder() throws -> TemporaryStore {
    let temporary = try TemporaryStore()
    try FileManager.default.createDirectory(at: temporary.storeURL, withIntermediateDirectories: true)
    return temporary
}

@Suite struct ServerAuthenticatorReloadTests {
    @Test func theFileIsReadAgainOnlyWhenItChanged() throws {
        let temporary = try makeStoreFolder()
        try temporary.accountsFile.add(name("kim"), password: "engine", replacing: false)
        let authenticator = try authenticator(temporary.accountsFile.passwordHashes(), usersFile: temporary.accountsFile)

        #expect(try authenticator.reloadIfChanged())
        #expect(try !authenticator.reloadIfChanged())
        try temporary.accountsFile.add(name("lee"), password: "cobol", replacing: false)
        #expect(try authenticator.reloadIfChanged())
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("lee", "cobol")) == .authenticated(try name("lee")))
        try temporary.accountsFile.remove(name("kim"))
        #expect(try authenticator.reloadIfChanged())
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .refused(.wrongCredentials))
    }

    @Test func aDamagedFileIsReportedOnceAndTheAccountsStay() throws {
        let temporary = try makeStoreFolder()
        try temporary.accountsFile.add(name("kim"), password: "engine", replacing: false)
        let authenticator = try ServerAuthenticator(usersFile: temporary.accountsFile)
        try temporary.write("{", to: ".contacts/users.json")

        #expect(throws: ContactsError.self) { try authenticator.reloadIfChanged() }
        #expect(try !authenticator.reloadIfChanged())
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .authenticated(try name("kim")))
    }

    @Test func aRemovedFileLeavesNobodyAbleToSignIn() throws {
        let temporary = try makeStoreFolder()
        try temporary.accountsFile.add(name("kim"), password: "engine", replacing: false)
        let authenticator = try ServerAuthenticator(usersFile: temporary.accountsFile)
        try FileManager.default.removeItem(at: temporary.accountsFile.fileURL)

        #expect(try authenticator.reloadIfChanged())
        #expect(authenticator.requiresAuthentication)
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .refused(.wrongCredentials))
    }

    @Test func aServerStartedWithoutUsersRequiresThemOnceOneIsAdded() throws {
        let temporary = try makeStoreFolder()
        let authenticator = try ServerAuthenticator(usersFile: temporary.accountsFile)
        #expect(!authenticator.requiresAuthentication)

        try temporary.accountsFile.add(name("kim"), password: "engine", replacing: false)

        #expect(try authenticator.reloadIfChanged())
        #expect(authenticator.authenticate(authorizationHeader: nil) == .missing)
        #expect(authenticator.authenticate(authorizationHeader: basicHeader("kim", "engine")) == .authenticated(try name("kim")))
    }
}
