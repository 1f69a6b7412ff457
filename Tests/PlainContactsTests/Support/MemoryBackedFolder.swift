import Foundation
import Glibc

/// A fresh folder for one test, on a memory-backed file system when the system has one
/// (`/dev/shm`), else in the temporary directory; removed when released.
///
/// The crash and contention tests kill processes, not the power: what they check does not
/// depend on the disk, and thousands of file creations and renames cost seconds on a slow disk
/// but milliseconds in memory.
final class MemoryBackedFolder {
    let url: URL

    init() throws {
        let memory = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let base = access(memory.path, W_OK | X_OK) == 0 ? memory : FileManager.default.temporaryDirectory
        url = base.appending(path: "PlainContactsTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    func appending(_ name: String) -> URL {
        url.appending(path: name, directoryHint: .isDirectory)
    }
}
