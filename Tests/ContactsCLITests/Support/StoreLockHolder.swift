import Foundation
import Glibc

/// Holds a store's lock (`<store>/.contacts/lock`, `flock` exclusive) as another process
/// saving would, until ``release()``.
final class StoreLockHolder {
    private var descriptor: Int32

    struct Failure: Error {}

    init(store: URL) throws {
        let folder = store.appending(path: ".contacts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        descriptor = open(folder.appending(path: "lock").path(percentEncoded: false), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { throw Failure() }
    }

    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }
}
