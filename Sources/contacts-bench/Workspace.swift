import Foundation
import PlainContacts

/// The benchmark's temporary folder: generated cards and stores live here and are removed
/// at the end unless `--keep` is given.
final class Workspace {
    /// The folder.
    let url: URL
    private let keep: Bool

    /// Creates a fresh folder under the system's temporary directory.
    ///
    /// - Throws: ``ContactsError/Code/io`` when it cannot be created.
    init(keep: Bool) throws {
        let name = "contacts-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        url = FileManager.default.temporaryDirectory.appending(path: name)
        self.keep = keep
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ContactsError(.io, "cannot create the temporary folder", path: url.path, underlying: error)
        }
    }

    /// A path inside the folder.
    func path(_ name: String) -> URL {
        url.appending(path: name)
    }

    /// Removes something inside the folder, quietly.
    func remove(_ item: URL) {
        try? FileManager.default.removeItem(at: item)
    }

    /// Removes the folder, or says where it is when it is kept.
    func finish() {
        if keep {
            Progress.note("kept \(url.path)")
        } else {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
