import DAVTestSupport
import Foundation
import Glibc
import PlainContactsSystem
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Iteration counts cheap enough for a debug build.
private let testIterations = 1_000

/// A temporary store folder; no manifest is needed.
private func makeStoreFolder() throws -> TemporaryStore {
    let temporary = try TemporaryStore()
    try FileManager.default.createDirectory(at: temporary.storeURL, withIntermediateDirectories: true)
    return temporary
}

extension TemporaryStore {
    /// The accounts of the store, with test iteration counts.
    fileprivate var users: ServerUsersFile {
        ServerUsersFile(storeURL: storeURL, hashIterations: testIterations, minimumIterations: testIterations)
    }

    /// Writes `text` as the users file, creating `.contacts/`.
    fileprivate func writeUsersFile(_ text: String) throws {
        try FileManager.default.createDirectory(at: path(".contacts"), withIntermediateDirectories: true)
        try write(text, to: ".contacts/users.json")
    }
}

/// A user name that is known to be valid.
private func name(_ text: String) throws -> ServerUserName {
    try ServerUserName(text)
}

/// The code of the `ContactsError` `body` throws, or `nil`.
private func errorCode(_ body: () throws -> Void) -> ContactsError.Code? {
    thrownCode(in: StoreDomain.self, body)
}

@Suite struct ServerUsersFileTests {
    @Test func noFileMeansNoAccountsAndReadingCreatesNothing() throws {
        let temporary = try makeStoreFolder()

        #expect(try temporary.users.accounts().isEmpty)
        #expect(try temporary.users.passwordHashes().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: temporary.path(".contacts").path(percentEncoded: false)))
    }

    @Test func addedAccountsVerifyTheirPasswordsAndListInByteOrder() throws {
        let temporary = try makeStoreFolder()
        try temporary.users.add(name("lee"), password: "cobol", replacing: false)
        try temporary.users.add(name("Kim"), password: "engine", replacing: false)
        try temporary.users.add(name("kim"), password: "motor", replacing: false)

        let accounts = try temporary.users.accounts()
        #expect(accounts.map(\.name.rawValue) == ["Kim", "kim", "lee"])
        #expect(accounts.map(\.passwordHash.iterations) == [testIterations, testIterations, testIterations])
        let hashes = try temporary.users.passwordHashes()
        #expect(hashes[try name("Kim")]?.verify("engine") == true)
        #expect(hashes[try name("kim")]?.verify("engine") == false)
        #expect(hashes[try name("kim")]?.verify("motor") == true)
    }

    @Test func theFileIsCanonicalJSONWithHashesAndNeverThePassword() throws {
        let temporary = try makeStoreFolder()
        try temporary.users.add(name("lee"), password: "cobol-password", replacing: false)
        try temporary.users.add(name("kim"), password: "engine-password", replacing: false)
        let hashes = try temporary.users.passwordHashes()
        let kim = try #require(hashes[try name("kim")]).text
        let lee = try #require(hashes[try name("lee")]).text

        let text = try temporary.read(".contacts/users.json")
        #expect(
            text == """
                {
                  "users": {
                    "kim": {
                      "passwordHash": "\(kim)"
                    },
                    "lee": {
                      "passwordHash": "\(lee)"
                    }
                  }
                }

                """)
        #expect(kim.hasPrefix("pbkdf2-sha256$1000$"))
        #expect(!text.contains("password\""))
        #expect(!text.contains("engine") && !text.contains("cobol"))
    }

    @Test func eachHashHasItsOwnSalt() throws {
        let temporary = try makeStoreFolder()
        try temporary.users.add(name("kim"), password: "same", replacing: false)
        try temporary.users.add(name("lee"), password: "same", replacing: false)

        let hashes = try temporary.users.passwordHashes()
        #expect(hashes[try name("kim")]?.salt != hashes[try name("lee")]?.salt)
        #expect(hashes[try name("kim")]?.salt.count == 16)
    }

    @Test func addingATakenNameFailsAndKeepsThePassword() throws {
        let temporary = try makeStoreFolder()
        try temporary.users.add(name("kim"), password: "first", replacing: false)
        let before = try temporary.read(".contacts/users.json")

        #expect(thrownCode(in: ServeDomain.self) { try temporary.users.add(name("kim"), password: "second", replacing: false) } == .userExists)
        #expect(thrownCode(in: ServeDomain.self) { try temporary.users.checkNameIsFree(name("kim")) } == .userExists)
        #expect(try temporary.read(".contacts/users.json") == before)
    }

    @Test func replacingGivesANewPasswordOrAddsTheAccount() throws {
        let temporary = try makeStoreFolder()
        try temporary.users.add(name("kim"), password: "first", replacing: false)

        #expect(try temporary.users.add(name("kim"), password: "second", replacing: true))
        #expect(try !temporary.users.add(name("lee"), password: "third", replacing: true))
        let hashes = try temporary.users.passwordHashes()
        #expect(hashes[try name("kim")]?.verify("first") == false)
        #expect(hashes[try name("kim")]?.verify("second") == true)
        #expect(hashes[try name("lee")]?.verify("third") == true)
    }

    @Test(arguments: ["", String(repeating: "x", count: ServerUsersFile.maximumPasswordLength + 1)])
    func anEmptyOrOverlongPasswordIsRefusedAndNothingIsWritten(password: String) throws {
        let temporary = try makeStoreFolder()

        #expect(errorCode { try temporary.users.add(name("kim"), password: password, replacing: false) } == .invalidValue)
        #expect(try temporary.files(in: ".contacts").isEmpty)
    }

    @Test func aPasswordOfTheLongestLengthIsAccepted() throws {
        let temporary = try makeStoreFolder()
        let password = String(repeating: "é", count: ServerUsersFile.maximumPasswordLength / 2)
        try temporary.users.add(name("kim"), password: password, replacing: false)

        #expect(try temporary.users.passwordHashes()[try name("kim")]?.verify(password) == true)
    }

    @Test func removingAnAccountKeepsTheOthersAndTheLastRemovesTheFile() throws {
        let temporary = try makeStoreFolder()
        try temporary.users.add(name("kim"), password: "a", replacing: false)
        try temporary.users.add(name("lee"), password: "b", replacing: false)

        try temporary.users.remove(name("kim"))
        #expect(try temporary.users.accounts().map(\.name.rawValue) == ["lee"])
        try temporary.users.remove(name("lee"))
        #expect(try temporary.files(in: ".contacts") == ["users.lock"])
        #expect(try temporary.users.accounts().isEmpty)
    }

    @Test func removingAnUnknownAccountFails() throws {
        let temporary = try makeStoreFolder()
        try temporary.users.add(name("kim"), password: "a", replacing: false)

        #expect(thrownCode(in: ServeDomain.self) { try temporary.users.remove(name("lee")) } == .userNotFound)
        #expect(try temporary.users.accounts().count == 1)
    }

    @Test func unknownKeysAreKeptWhenTheFileIsRewritten() throws {
        let temporary = try makeStoreFolder()
        let hash = try PasswordHash.make(password: "old", iterations: testIterations)
        try temporary.writeUsersFile(
            #"{"future": [1], "users": {"kim": {"passwordHash": "\#(hash.text)", "since": 2024}}}"#)

        try temporary.users.add(name("kim"), password: "new", replacing: true)
        let newHash = try #require(try temporary.users.passwordHashes()[try name("kim")])

        #expect(
            try temporary.read(".contacts/users.json") == """
                {
                  "future": [
                    1
                  ],
                  "users": {
                    "kim": {
                      "passwordHash": "\(newHash.text)",
                      "since": 2024
                    }
                  }
                }

                """)
    }

    @Test(arguments: [
        "", "{", "[]", #"{"users": []}"#, #"{"users": {"kim": "hash"}}"#, #"{"users": {"kim": {}}}"#,
        #"{"users": {"kim": {"passwordHash": 7}}}"#, #"{"users": {"kim:lee": {"passwordHash": "x"}}}"#,
        #"{"users": {"": {"passwordHash": "x"}}}"#, #"{"users": {"kim": {"passwordHash": "x"}, "kim": {"passwordHash": "y"}}}"#,
        "<<<<<<< ours\n{}\n=======\n{}\n>>>>>>> theirs\n",
    ])
    func aDamagedFileIsAMalformedFileErrorAndIsNeverOverwritten(text: String) throws {
        let temporary = try makeStoreFolder()
        try temporary.writeUsersFile(text)

        #expect(errorCode { _ = try temporary.users.accounts() } == .malformedFile)
        #expect(errorCode { try temporary.users.add(name("new"), password: "pw", replacing: false) } == .malformedFile)
        #expect(errorCode { try temporary.users.remove(name("kim")) } == .malformedFile)
        #expect(try temporary.read(".contacts/users.json") == text)
    }

    @Test(arguments: [
        "x", "pbkdf2-sha1$1000$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=",
        "pbkdf2-sha256$999$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=",
    ])
    func anUnacceptableHashIsAMalformedFileThatCanStillBeReplaced(hash: String) throws {
        let temporary = try makeStoreFolder()
        try temporary.writeUsersFile(#"{"users": {"kim": {"passwordHash": "\#(hash)"}}}"#)

        #expect(errorCode { _ = try temporary.users.accounts() } == .malformedFile)
        try temporary.users.add(name("kim"), password: "new", replacing: true)
        #expect(try temporary.users.passwordHashes()[try name("kim")]?.verify("new") == true)
    }

    @Test func theErrorOfADamagedFileNamesTheFile() throws {
        let temporary = try makeStoreFolder()
        try temporary.writeUsersFile("{")

        do {
            _ = try temporary.users.accounts()
            Issue.record("a damaged file was read")
        } catch let error as ContactsError {
            #expect(error.path == temporary.users.fileURL.path(percentEncoded: false))
        }
    }

    @Test func aFolderInPlaceOfTheFileIsAnErrorNamingIt() throws {
        let temporary = try makeStoreFolder()
        try FileManager.default.createDirectory(at: temporary.path(".contacts/users.json"), withIntermediateDirectories: true)

        do {
            _ = try temporary.users.accounts()
            Issue.record("a folder was read as the users file")
        } catch let error as ContactsError {
            #expect(error.code == .io)
            #expect(error.path == temporary.users.fileURL.path(percentEncoded: false))
        }
    }

    @Test func addingWithoutTheStoreFolderFailsWithIO() throws {
        let temporary = try TemporaryStore()

        #expect(errorCode { try temporary.users.add(name("kim"), password: "pw", replacing: false) } == .io)
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        let temporary = try makeStoreFolder()
        try temporary.users.add(name("kim"), password: "a", replacing: false)
        try temporary.users.add(name("lee"), password: "b", replacing: false)
        try temporary.users.add(name("kim"), password: "c", replacing: true)
        try temporary.users.remove(name("lee"))

        #expect(try temporary.files(in: ".contacts") == ["users.json", "users.lock"])
    }

    @Test func concurrentWritersEachWithTheirOwnFileKeepEveryAccount() async throws {
        let temporary = try makeStoreFolder()
        let storeURL = temporary.storeURL
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let file = ServerUsersFile(storeURL: storeURL, hashIterations: testIterations, minimumIterations: testIterations)
                    try file.add(try ServerUserName("user\(index)"), password: "pw\(index)", replacing: false)
                }
            }
            try await group.waitForAll()
        }

        #expect(try temporary.users.accounts().count == 16)
    }
}

/// Creates the file in a child process with a zero umask, so that no parallel test sees it.
@Suite struct ServerUsersFilePermissionTests {
    @Test func theFileIsPrivateWhateverTheUmask() async {
        await #expect(processExitsWith: .success) {
            let temporary = try makeStoreFolder()
            umask(0)
            try temporary.users.add(name("kim"), password: "a", replacing: false)
            try temporary.users.add(name("kim"), password: "b", replacing: true)
            var info = stat()
            for (relative, expected) in [(".contacts", 0o700), (".contacts/users.json", 0o600), (".contacts/users.lock", 0o600)] {
                guard stat(temporary.path(relative).path(percentEncoded: false), &info) == 0,
                    Int(info.st_mode & 0o777) == expected
                else { exit(EXIT_FAILURE) }
            }
        }
    }
}
