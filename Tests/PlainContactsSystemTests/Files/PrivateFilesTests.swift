import Foundation
import Glibc
import Testing

@testable import PlainContactsSystem

/// Files only their owner may read: 0700 folders, 0600 files.
@Suite struct PrivateFilesTests {
    private typealias Files = PrivateFiles<FileFailuresTests.Failures>

    /// A fresh folder for one test, removed when it ends.
    private static func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "plaincontacts-private-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    private static func mode(of url: URL) -> mode_t {
        var status = stat()
        guard stat(url.path(percentEncoded: false), &status) == 0 else { return 0 }
        return status.st_mode & 0o777
    }

    @Test func aMissingFileReadsAsNil() throws {
        try Self.withFolder { folder in
            let missing = try Files.read(folder.appending(path: "missing"))
            let missingFolder = try Files.read(folder.appending(path: "no-folder/missing"))
            #expect(missing == nil)
            #expect(missingFolder == nil)
        }
    }

    @Test func foldersAreMadeWithTheirParentsAndArePrivate() throws {
        try Self.withFolder { folder in
            let nested = folder.appending(path: "a/b/c", directoryHint: .isDirectory)
            try Files.makePrivateFolders(nested)
            for url in [folder.appending(path: "a"), folder.appending(path: "a/b"), nested] {
                #expect(Self.mode(of: url) == 0o700)
            }
            try Files.makePrivateFolder(nested)
        }
    }

    @Test func appendsAddToAPrivateFileThatReadsBack() throws {
        try Self.withFolder { folder in
            let file = folder.appending(path: "history")
            try Files.append(Data("one\n".utf8), to: file)
            try Files.append(Data("two\n".utf8), to: file)
            let read = try Files.read(file)
            #expect(read == Data("one\ntwo\n".utf8))
            #expect(Self.mode(of: file) == 0o600)
        }
    }

    @Test func aFileInTheWayOfAFolderFailsWithTheCallersError() throws {
        try Self.withFolder { folder in
            let blocker = folder.appending(path: "blocker")
            try Data().write(to: blocker)
            let error = try #require(throws: FileFailuresTests.CallFailed.self) {
                try Files.makePrivateFolder(blocker)
            }
            #expect(error.call == "mkdir")
            #expect(error.errno == EEXIST)
        }
    }
}
