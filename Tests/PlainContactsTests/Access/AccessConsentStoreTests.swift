import DAVTestSupport
import Foundation
import Glibc
import Synchronization
import PlainContactsSystem
import Testing
@testable import PlainContacts

/// A temporary store folder with an empty `people/` folder.
private func makeStore() throws -> TemporaryStore {
    let temporary = try TemporaryStore()
    try FileManager.default.createDirectory(at: temporary.path("people"), withIntermediateDirectories: true)
    return temporary
}

/// The permission bits of a file or folder.
private func mode(of url: URL) throws -> mode_t {
    var info = stat()
    try #require(stat(url.path(percentEncoded: false), &info) == 0)
    return info.st_mode & 0o777
}

@Suite("AccessConsentStore")
struct AccessConsentStoreTests {
    @Test func clientWithoutDecisionIsNotDetermined() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        #expect(consent.status(for: "com.example.mailer") == .notDetermined)
        #expect(consent.allStatuses().isEmpty)
        #expect(try temporary.files(in: ".contacts").isEmpty)
    }

    @Test func grantingAccessRecordsAuthorizedInCanonicalJSON() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        try consent.setStatus(.authorized, for: "com.example.mailer")
        try consent.setStatus(.denied, for: "com.example.backup")

        #expect(consent.status(for: "com.example.mailer") == .authorized)
        #expect(
            try temporary.read(".contacts/access.json") == """
                {
                  "clients": {
                    "com.example.backup": "denied",
                    "com.example.mailer": "authorized"
                  }
                }

                """)
    }

    @Test func refusingAccessRecordsDenied() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        try consent.setStatus(.denied, for: "com.example.tracker")

        #expect(consent.status(for: "com.example.tracker") == .denied)
        #expect(AccessConsentStore(storeURL: temporary.storeURL).status(for: "com.example.tracker") == .denied)
    }

    @Test func changingAnAnswerReplacesTheDecision() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        try consent.setStatus(.denied, for: "com.example.mailer")
        try consent.setStatus(.authorized, for: "com.example.mailer")

        #expect(consent.status(for: "com.example.mailer") == .authorized)
    }

    @Test func resetReturnsOnlyThatClientToNotDetermined() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")
        try consent.setStatus(.denied, for: "com.example.tracker")

        try consent.reset(client: "com.example.mailer")

        #expect(consent.status(for: "com.example.mailer") == .notDetermined)
        #expect(consent.status(for: "com.example.tracker") == .denied)
    }

    @Test func settingNotDeterminedForgetsTheDecisionAndRemovesAnEmptyFile() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")

        try consent.setStatus(.notDetermined, for: "com.example.mailer")

        #expect(consent.status(for: "com.example.mailer") == .notDetermined)
        #expect(try !temporary.files(in: ".contacts").contains("access.json"))
    }

    @Test func resetWithoutPrivateFolderCreatesNothing() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        try consent.reset(client: "com.example.mailer")
        try consent.resetAll()

        #expect(!FileManager.default.fileExists(atPath: temporary.path(".contacts").path))
    }

    @Test func resetAllForgetsEveryDecision() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")
        try consent.setStatus(.denied, for: "com.example.tracker")

        try consent.resetAll()

        #expect(consent.status(for: "com.example.mailer") == .notDetermined)
        #expect(consent.status(for: "com.example.tracker") == .notDetermined)
        #expect(consent.allStatuses().isEmpty)
    }

    @Test func damagedConsentFileIsKeptUntilResetAll() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")
        let damaged = "{\"clients\": {\"com.example.mailer\": "
        try temporary.write(damaged, to: ".contacts/access.json")

        #expect(consent.status(for: "com.example.mailer") == .notDetermined)
        let error = #expect(throws: ContactsError.self) {
            try consent.setStatus(.authorized, for: "com.example.backup")
        }
        #expect(error?.code == .malformedFile)
        #expect(try temporary.read(".contacts/access.json") == damaged)

        try consent.resetAll()
        try consent.setStatus(.authorized, for: "com.example.backup")
        #expect(consent.status(for: "com.example.backup") == .authorized)
    }

    @Test func restrictedCannotBeSet() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        let error = #expect(throws: ContactsError.self) {
            try consent.setStatus(.restricted, for: "com.example.mailer")
        }

        #expect(error?.code == .invalidValue)
        #expect(consent.status(for: "com.example.mailer") == .notDetermined)
    }

    @Test func ownerClientIsAlwaysAuthorized() throws {
        let temporary = try makeStore()
        try FileManager.default.createDirectory(at: temporary.path(".contacts"), withIntermediateDirectories: true)
        try temporary.write(#"{"restricted": true}"#, to: ".contacts/policy.json")
        let consent = AccessConsentStore(storeURL: temporary.storeURL, permissionCheck: { _ in false })

        #expect(AccessConsentStore.ownerClient == "contacts")
        #expect(consent.status(for: AccessConsentStore.ownerClient) == .authorized)
        let error = #expect(throws: ContactsError.self) {
            try consent.setStatus(.denied, for: AccessConsentStore.ownerClient)
        }
        #expect(error?.code == .invalidValue)
        #expect(consent.status(for: AccessConsentStore.ownerClient) == .authorized)
    }

    @Test func policyRestrictingTheWholeStoreOverridesGrants() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")

        try temporary.write(#"{"restricted": true}"#, to: ".contacts/policy.json")

        #expect(consent.status(for: "com.example.mailer") == .restricted)
        #expect(consent.status(for: "com.example.new") == .restricted)
    }

    @Test func policyNamingAClientRestrictsOnlyThatClient() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")
        try consent.setStatus(.authorized, for: "com.example.tracker")

        try temporary.write(#"{"restrictedClients": ["com.example.tracker"]}"#, to: ".contacts/policy.json")

        #expect(consent.status(for: "com.example.tracker") == .restricted)
        #expect(consent.status(for: "com.example.mailer") == .authorized)
    }

    @Test(arguments: ["{", #"{"restricted": "yes"}"#, #"{"restrictedClients": [1]}"#, "[]"])
    func malformedPolicyRestrictsEveryClient(policy: String) throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")

        try temporary.write(policy, to: ".contacts/policy.json")

        #expect(consent.status(for: "com.example.mailer") == .restricted)
    }

    @Test func unreadablePeopleFolderRestrictsEveryClient() throws {
        let temporary = try makeStore()
        let checked = CheckedFolders()
        let consent = AccessConsentStore(storeURL: temporary.storeURL) { folder in
            checked.record(folder)
            return false
        }
        try consent.setStatus(.authorized, for: "com.example.mailer")

        #expect(consent.status(for: "com.example.mailer") == .restricted)
        #expect(consent.status(for: "com.example.new") == .restricted)
        #expect(checked.lastComponents == ["people"])
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any folder, so the permission bits cannot deny it"))
    func peopleFolderWithoutPermissionsRestrictsEveryClient() throws {
        let temporary = try makeStore()
        let people = temporary.path("people").path(percentEncoded: false)
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")

        try #require(chmod(people, 0o000) == 0)
        defer { chmod(people, 0o700) }

        #expect(consent.status(for: "com.example.mailer") == .restricted)
    }

    @Test func missingPeopleFolderRestrictsNothing() throws {
        let temporary = try TemporaryStore()
        try FileManager.default.createDirectory(at: temporary.storeURL, withIntermediateDirectories: true)
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        try consent.setStatus(.authorized, for: "com.example.mailer")

        #expect(consent.status(for: "com.example.mailer") == .authorized)
    }

    @Test(arguments: ["", String(repeating: "a", count: 201), "com.example\nmailer", "evil\u{1B}[2J", "line\u{2028}break"])
    func invalidClientNamesAreRejected(client: String) throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        let setError = #expect(throws: ContactsError.self) { try consent.setStatus(.authorized, for: client) }
        let resetError = #expect(throws: ContactsError.self) { try consent.reset(client: client) }

        #expect(setError?.code == .invalidValue)
        #expect(resetError?.code == .invalidValue)
        #expect(consent.status(for: client) == .notDetermined)
    }

    @Test func clientNameOfTwoHundredCharactersIsAccepted() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        let client = String(repeating: "é", count: 200)

        try consent.setStatus(.authorized, for: client)

        #expect(consent.status(for: client) == .authorized)
    }

    @Test func allStatusesListsKnownClientsSortedWithTheirEffectiveStatus() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.denied, for: "org.example.zeta")
        try consent.setStatus(.authorized, for: "com.example.mailer")
        try consent.setStatus(.authorized, for: "com.example.backup")
        try temporary.write(
            #"{"restrictedClients": ["com.example.backup", "net.example.tracker"]}"#, to: ".contacts/policy.json")

        let statuses = consent.allStatuses()

        #expect(statuses.map(\.client) == ["com.example.backup", "com.example.mailer", "net.example.tracker", "org.example.zeta"])
        #expect(statuses.map(\.status) == [.restricted, .authorized, .restricted, .denied])
    }

    @Test func unknownKeysAreKeptWhenTheFileIsRewritten() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")
        try temporary.write(
            #"{"clients": {"com.example.mailer": "authorized", "com.example.new": "limited"}, "note": "kept"}"#,
            to: ".contacts/access.json")

        try consent.setStatus(.denied, for: "com.example.backup")

        #expect(consent.status(for: "com.example.new") == .notDetermined)
        #expect(
            try temporary.read(".contacts/access.json") == """
                {
                  "clients": {
                    "com.example.backup": "denied",
                    "com.example.mailer": "authorized",
                    "com.example.new": "limited"
                  },
                  "note": "kept"
                }

                """)
    }

    @Test func recordingTheSameDecisionAgainLeavesTheFileUntouched() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")
        let before = try FileManager.default.attributesOfItem(atPath: temporary.path(".contacts/access.json").path)

        try consent.setStatus(.authorized, for: "com.example.mailer")

        let after = try FileManager.default.attributesOfItem(atPath: temporary.path(".contacts/access.json").path)
        #expect(before[.systemFileNumber] as? UInt64 == after[.systemFileNumber] as? UInt64)
    }

    @Test func settingAStatusWithoutTheStoreFolderFailsWithIO() throws {
        let temporary = try TemporaryStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        let error = #expect(throws: ContactsError.self) {
            try consent.setStatus(.authorized, for: "com.example.mailer")
        }

        #expect(error?.code == .io)
        #expect(!FileManager.default.fileExists(atPath: temporary.storeURL.path))
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)

        for index in 0..<5 {
            try consent.setStatus(index.isMultiple(of: 2) ? .authorized : .denied, for: "com.example.client\(index)")
        }
        try consent.reset(client: "com.example.client0")

        #expect(try temporary.files(in: ".contacts") == ["access.json", "access.lock"])
    }

    @Test func temporaryFilesOfADeadWriterAreRemovedByTheNextWrite() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        try consent.setStatus(.authorized, for: "com.example.mailer")
        try temporary.write("{", to: ".contacts/.access.json.k3j9x0w2q7ab.tmp")
        try temporary.write("{}", to: ".contacts/policy.json")

        try consent.setStatus(.denied, for: "com.example.backup")

        #expect(try temporary.files(in: ".contacts") == ["access.json", "access.lock", "policy.json"])
    }

    @Test func concurrentWritersEachWithTheirOwnStoreKeepEveryDecision() throws {
        let temporary = try makeStore()
        let storeURL = temporary.storeURL
        let failures = FailureCount()

        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            let consent = AccessConsentStore(storeURL: storeURL)
            for index in 0..<5 {
                do {
                    try consent.setStatus(.authorized, for: "com.example.writer\(writer).client\(index)")
                } catch {
                    failures.increment()
                }
            }
        }

        #expect(failures.value == 0)
        let statuses = AccessConsentStore(storeURL: storeURL).allStatuses()
        #expect(statuses.count == 40)
        #expect(statuses.allSatisfy { $0.status == .authorized })
        #expect(try temporary.files(in: ".contacts") == ["access.json", "access.lock"])
    }
}

/// Changes the process-wide umask, so these tests run one at a time, and only with a umask of
/// zero (which cannot make a parallel test's files unusable).
@Suite("AccessConsentStore file permissions", .serialized)
struct AccessConsentStorePermissionTests {
    @Test func writtenFilesArePrivateWithAZeroUmask() throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        let previous = umask(0)
        defer { umask(previous) }

        try consent.setStatus(.authorized, for: "com.example.mailer")

        #expect(try mode(of: temporary.path(".contacts")) == 0o700)
        #expect(try mode(of: temporary.path(".contacts/access.json")) == 0o600)
        #expect(try mode(of: temporary.path(".contacts/access.lock")) == 0o600)
    }

    @Test func writtenFilesAreUsableWithARestrictiveUmask() async {
        // A umask that strips the owner's write bit would break tests running in parallel,
        // so it is set in a child process.
        await #expect(processExitsWith: .success) {
            let temporary = try makeStore()
            let consent = AccessConsentStore(storeURL: temporary.storeURL)
            umask(0o277)
            try consent.setStatus(.authorized, for: "com.example.mailer")
            try consent.setStatus(.denied, for: "com.example.backup")
            guard try mode(of: temporary.path(".contacts")) == 0o700,
                try mode(of: temporary.path(".contacts/access.json")) == 0o600,
                try mode(of: temporary.path(".contacts/access.lock")) == 0o600,
                consent.status(for: "com.example.backup") == .denied
            else { exit(EXIT_FAILURE) }
        }
    }
}

/// Records the folders a permission check was asked about.
private final class CheckedFolders: Sendable {
    private let folders = Mutex<[URL]>([])

    func record(_ folder: URL) {
        folders.withLock { $0.append(folder) }
    }

    /// The distinct last path components recorded, sorted.
    var lastComponents: [String] {
        Set(folders.withLock { $0 }.map(\.lastPathComponent)).sorted()
    }
}

/// Counts failures reported from several threads.
private final class FailureCount: Sendable {
    private let count = Mutex(0)

    func increment() {
        count.withLock { $0 += 1 }
    }

    var value: Int { count.withLock { $0 } }
}
