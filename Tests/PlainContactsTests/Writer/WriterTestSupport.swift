import Foundation
import Glibc
import Synchronization
import Testing

@testable import PlainContacts

/// A fresh temporary store folder for one test, removed when the test ends.
final class WriterFixture {
    let root: URL
    var path: String { root.path(percentEncoded: false) }

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appending(path: "plaincontacts-writer-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func url(_ relativePath: String) -> URL {
        root.appending(path: relativePath)
    }

    /// Writes a file directly (not through the writer, and without syncing, so that seeding
    /// thousands of files stays fast), creating folders as needed.
    func put(_ text: String, at relativePath: String) throws {
        let url = url(relativePath)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(url.path(percentEncoded: false), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
    }

    func text(at relativePath: String) -> String? {
        guard let data = FileManager.default.contents(atPath: url(relativePath).path(percentEncoded: false))
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relativePath).path(percentEncoded: false))
    }

    /// Every file (not folder) under `relativeFolder`, as sorted paths relative to the root.
    func files(under relativeFolder: String = "") -> [String] {
        let base = relativeFolder.isEmpty ? root : url(relativeFolder)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path(percentEncoded: false))
        else { return [] }
        var result: [String] = []
        while let name = enumerator.nextObject() as? String {
            let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
            var isFolder: ObjCBool = false
            let path = url(relative).path(percentEncoded: false)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                result.append(relative)
            }
        }
        return result.sorted()
    }

    /// The permission bits of a file or folder.
    func permissions(of relativePath: String) throws -> mode_t {
        var status = stat()
        let result = lstat(url(relativePath).path(percentEncoded: false), &status)
        try #require(result == 0)
        return status.st_mode & 0o7777
    }

    func inode(of relativePath: String) throws -> UInt {
        var status = stat()
        let result = lstat(url(relativePath).path(percentEncoded: false), &status)
        try #require(result == 0)
        return UInt(status.st_ino)
    }
}

/// Runs `body` with the process's umask set to `mask`. Calls are serialized, because the umask
/// belongs to the whole process and tests run in parallel.
@discardableResult
func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
    try umaskGuard.withLock { _ in
        let previous = umask(mask)
        defer { umask(previous) }
        return try body()
    }
}

private let umaskGuard = Mutex(())
