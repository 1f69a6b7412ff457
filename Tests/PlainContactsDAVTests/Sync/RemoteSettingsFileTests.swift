import DAVTestSupport
import Foundation
import Glibc
import PlainContactsSystem
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// A temporary store folder; no manifest is needed.
private func makeStoreFolder() throws -> TemporaryStore {
    let temporary = try TemporaryStore()
    try FileManager.default.createDirectory(at: temporary.storeURL, withIntermediateDirectories: true)
    return temporary
}

extension TemporaryStore {
    /// The remotes of the store.
    fileprivate var remotes: RemoteSettingsFile { RemoteSettingsFile(storeURL: storeURL) }
}

private func remote(_ name: String, _ url: String, user: String? = nil, command: String? = nil) throws -> RemoteSettings {
    RemoteSettings(
        name: try RemoteName(name), url: try RemoteSettings.collectionURL(from: url), user: user,
        passwordCommand: command)
}

/// The code of the `ContactsError` `body` throws, or `nil`.
private func errorCode(_ body: () throws -> Void) -> ContactsError.Code? {
    thrownCode(in: StoreDomain.self, body)
}

@Suite struct RemoteSettingsFileTests {
    @Test func addedRemotesReadBackSortedByName() throws {
        let temporary = try makeStoreFolder()
        let radicale = try remote("radicale", "http://127.0.0.1:5232/kim/contacts/")
        let fastmail = try remote("fastmail", "https://dav.example.com/kim/", user: "kim", command: "pass show dav")

        try temporary.remotes.add(radicale)
        try temporary.remotes.add(fastmail)

        #expect(try temporary.remotes.remotes() == [fastmail, radicale])
        #expect(try temporary.remotes.remote(named: RemoteName("fastmail")) == fastmail)
        #expect(try temporary.remotes.remote(named: RemoteName("other")) == nil)
    }

    @Test func theFileIsCanonicalJSONWithoutAnyPassword() throws {
        let temporary = try makeStoreFolder()
        try temporary.remotes.add(try remote("fastmail", "https://dav.example.com/kim/", user: "kim", command: "pass show dav"))
        try temporary.remotes.add(try remote("radicale", "http://127.0.0.1:5232/kim/contacts/"))

        #expect(
            try temporary.read(".contacts/remotes.json") == """
                {
                  "remotes": {
                    "fastmail": {
                      "passwordCommand": "pass show dav",
                      "url": "https://dav.example.com/kim/",
                      "user": "kim"
                    },
                    "radicale": {
                      "url": "http://127.0.0.1:5232/kim/contacts/"
                    }
                  }
                }

                """)
    }

    @Test func noFileMeansNoRemotes() throws {
        let temporary = try makeStoreFolder()
        #expect(try temporary.remotes.remotes().isEmpty)
        #expect(try temporary.files(in: ".contacts").isEmpty)
    }

    @Test func addingATakenNameFailsAndKeepsTheFirst() throws {
        let temporary = try makeStoreFolder()
        let first = try remote("dav", "https://one.example.com/")
        try temporary.remotes.add(first)

        #expect(thrownCode(in: SyncDomain.self) { try temporary.remotes.add(try remote("dav", "https://two.example.com/")) } == .remoteExists)
        #expect(try temporary.remotes.remotes() == [first])
    }

    @Test func removingARemoteRemovesItsSettingsAndItsSyncStatus() throws {
        let temporary = try makeStoreFolder()
        try temporary.remotes.add(try remote("keep", "https://one.example.com/"))
        try temporary.remotes.add(try remote("drop", "https://two.example.com/"))
        let status = temporary.remotes.statusFolder(for: try RemoteName("drop"))
        try FileManager.default.createDirectory(at: status, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: status.appending(path: "cards.json"))

        try temporary.remotes.remove(named: RemoteName("drop"))

        #expect(try temporary.remotes.remotes().map(\.name.rawValue) == ["keep"])
        #expect(try temporary.files(in: ".contacts/sync").isEmpty)
    }

    @Test func removingTheLastRemoteRemovesTheFile() throws {
        let temporary = try makeStoreFolder()
        try temporary.remotes.add(try remote("dav", "https://one.example.com/"))

        try temporary.remotes.remove(named: RemoteName("dav"))

        #expect(try temporary.files(in: ".contacts") == ["remotes.lock"])
    }

    @Test func removingAnUnknownRemoteFails() throws {
        let temporary = try makeStoreFolder()
        try temporary.remotes.add(try remote("dav", "https://one.example.com/"))

        #expect(thrownCode(in: SyncDomain.self) { try temporary.remotes.remove(named: RemoteName("other")) } == .remoteNotFound)
        #expect(thrownCode(in: SyncDomain.self) { try temporary.remotes.replace(try remote("other", "https://x.example.com/")) } == .remoteNotFound)
        #expect(try temporary.remotes.remotes().count == 1)
    }

    @Test func theSyncStatusFolderIsNamedAfterTheRemote() throws {
        let temporary = try makeStoreFolder()
        #expect(
            temporary.remotes.statusFolder(for: try RemoteName("fastmail")).standardizedFileURL.path
                == temporary.path(".contacts/sync/fastmail").standardizedFileURL.path)
    }

    @Test func addingARemoteClearsAStaleSyncStatusOfItsName() throws {
        let temporary = try makeStoreFolder()
        let status = temporary.remotes.statusFolder(for: try RemoteName("dav"))
        try FileManager.default.createDirectory(at: status, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: status.appending(path: "cards.json"))

        try temporary.remotes.add(try remote("dav", "https://one.example.com/"))

        #expect(try temporary.files(in: ".contacts/sync").isEmpty)
    }

    @Test func unknownKeysAreKeptWhenTheFileIsRewritten() throws {
        let temporary = try makeStoreFolder()
        try FileManager.default.createDirectory(at: temporary.path(".contacts"), withIntermediateDirectories: true)
        try temporary.write(
            #"{"future": [1], "remotes": {"dav": {"syncEvery": 15, "url": "https://one.example.com/"}}}"#,
            to: ".contacts/remotes.json")

        var dav = try #require(try temporary.remotes.remote(named: RemoteName("dav")))
        #expect(dav.unknownFields == ["syncEvery": .number(JSONNumber(15))])
        dav.user = "kim"
        try temporary.remotes.replace(dav)
        try temporary.remotes.add(try remote("other", "https://two.example.com/"))

        #expect(
            try temporary.read(".contacts/remotes.json") == """
                {
                  "future": [
                    1
                  ],
                  "remotes": {
                    "dav": {
                      "syncEvery": 15,
                      "url": "https://one.example.com/",
                      "user": "kim"
                    },
                    "other": {
                      "url": "https://two.example.com/"
                    }
                  }
                }

                """)
    }

    @Test(arguments: [
        "{", "[]", #"{"remotes": []}"#, #"{"remotes": {"dav": "https://one.example.com/"}}"#,
        #"{"remotes": {"dav": {}}}"#, #"{"remotes": {"dav": {"url": "ftp://one.example.com/"}}}"#,
        #"{"remotes": {"../up": {"url": "https://one.example.com/"}}}"#,
        #"{"remotes": {"dav": {"url": "https://one.example.com/", "user": 7}}}"#,
        "<<<<<<< ours\n{}\n=======\n{}\n>>>>>>> theirs\n",
    ])
    func aDamagedFileIsAMalformedFileErrorAndIsNeverOverwritten(text: String) throws {
        let temporary = try makeStoreFolder()
        try FileManager.default.createDirectory(at: temporary.path(".contacts"), withIntermediateDirectories: true)
        try temporary.write(text, to: ".contacts/remotes.json")

        #expect(errorCode { _ = try temporary.remotes.remotes() } == .malformedFile)
        #expect(errorCode { try temporary.remotes.add(try remote("new", "https://two.example.com/")) } == .malformedFile)
        #expect(errorCode { try temporary.remotes.remove(named: RemoteName("dav")) } == .malformedFile)
        #expect(try temporary.read(".contacts/remotes.json") == text)
    }

    @Test func theErrorOfADamagedFileNamesTheFile() throws {
        let temporary = try makeStoreFolder()
        try FileManager.default.createDirectory(at: temporary.path(".contacts"), withIntermediateDirectories: true)
        try temporary.write("{", to: ".contacts/remotes.json")

        do {
            _ = try temporary.remotes.remotes()
            Issue.record("a damaged file was read")
        } catch let error as ContactsError {
            #expect(error.path == temporary.remotes.fileURL.path(percentEncoded: false))
        }
    }

    @Test func aNullUserReadsAsNoUser() throws {
        let temporary = try makeStoreFolder()
        try FileManager.default.createDirectory(at: temporary.path(".contacts"), withIntermediateDirectories: true)
        try temporary.write(
            #"{"remotes": {"dav": {"url": "https://one.example.com/", "user": null}}}"#, to: ".contacts/remotes.json")

        #expect(try temporary.remotes.remote(named: RemoteName("dav"))?.user == nil)
    }

    @Test func addingWithoutTheStoreFolderFailsWithIO() throws {
        let temporary = try TemporaryStore()

        #expect(errorCode { try temporary.remotes.add(try remote("dav", "https://one.example.com/")) } == .io)
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        let temporary = try makeStoreFolder()
        try temporary.remotes.add(try remote("a", "https://one.example.com/"))
        try temporary.remotes.add(try remote("b", "https://two.example.com/"))
        try temporary.remotes.remove(named: RemoteName("a"))

        #expect(try temporary.files(in: ".contacts") == ["remotes.json", "remotes.lock"])
    }

    @Test func concurrentWritersEachWithTheirOwnFileKeepEveryRemote() async throws {
        let temporary = try makeStoreFolder()
        let storeURL = temporary.storeURL
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try RemoteSettingsFile(storeURL: storeURL).add(try remote("r\(index)", "https://\(index).example.com/"))
                }
            }
            try await group.waitForAll()
        }

        #expect(try temporary.remotes.remotes().count == 20)
    }
}

/// Creates the file in a child process with a zero umask, so that no parallel test sees it.
@Suite struct RemoteSettingsFilePermissionTests {
    @Test func theFileIsPrivateWhateverTheUmask() async {
        await #expect(processExitsWith: .success) {
            let temporary = try makeStoreFolder()
            umask(0)
            try temporary.remotes.add(try remote("dav", "https://one.example.com/", user: "kim"))
            try temporary.remotes.add(try remote("other", "https://two.example.com/"))
            var info = stat()
            for (relative, expected) in [(".contacts", 0o700), (".contacts/remotes.json", 0o600), (".contacts/remotes.lock", 0o600)] {
                guard stat(temporary.path(relative).path(percentEncoded: false), &info) == 0,
                    Int(info.st_mode & 0o777) == expected
                else { exit(EXIT_FAILURE) }
            }
        }
    }
}
