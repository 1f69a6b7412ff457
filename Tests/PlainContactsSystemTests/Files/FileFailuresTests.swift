import Foundation
import Glibc
import Testing

@testable import PlainContactsSystem

/// The failures of the file types reach callers as the error of the `FileFailures` they are
/// named with, carrying the call and its `errno`.
@Suite struct FileFailuresTests {
    /// The error of these tests: what a library above would make its own.
    struct CallFailed: Error, Equatable {
        var call: String
        var errno: Int32
        var path: String?
    }

    enum Failures: FileFailures {
        static func error(_ action: String, path: String?, code: Int32, call: String) -> CallFailed {
            CallFailed(call: call, errno: code, path: path)
        }
    }

    /// A fresh folder for one test, removed when it ends.
    private static func withFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "plaincontacts-system-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.path(percentEncoded: false))
    }

    @Test func aWriteIntoAMissingFolderThrowsTheFailuresError() throws {
        try Self.withFolder { folder in
            let target = URL(filePath: folder + "/missing/settings.json")
            let error = #expect(throws: CallFailed.self) {
                try DurableFile<Failures>.write(Data("{}\n".utf8), to: target)
            }
            #expect(error?.call == "open")
            #expect(error?.errno == ENOENT)
        }
    }

    @Test func aWriteReplacesTheFileAndLeavesNoTemporaryFile() throws {
        try Self.withFolder { folder in
            let target = URL(filePath: folder + "/settings.json")
            try DurableFile<Failures>.write(Data("old\n".utf8), to: target)
            try DurableFile<Failures>.write(Data("new\n".utf8), to: target)
            #expect(try Data(contentsOf: target) == Data("new\n".utf8))
            #expect(try PosixFileSystem<Failures>.entries(of: folder) == ["settings.json"])
        }
    }

    @Test func aSecondExclusiveLockThatDoesNotWaitIsRefused() throws {
        try Self.withFolder { folder in
            let lock = folder + "/locks/settings.lock"
            let first = try FileLock<Failures>.open(lock, in: folder + "/locks")
            defer { FileLock<Failures>.release(first) }
            #expect(try FileLock<Failures>.acquire(.exclusive, on: first, waiting: .forever, action: "lock"))
            let second = try FileLock<Failures>.open(lock, in: folder + "/locks")
            defer { FileLock<Failures>.release(second) }
            #expect(try !FileLock<Failures>.acquire(.exclusive, on: second, waiting: .upTo(.zero), action: "lock"))
        }
    }
}
