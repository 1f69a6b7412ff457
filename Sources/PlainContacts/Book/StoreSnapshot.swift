import FoundationEssentials
import Glibc
import PlainContactsSystem

/// The files of a store that Git tracks as records and settings (`store.json` and the regular
/// files in `people/` and `groups/`), each with its signature, to tell which files a command
/// changed.
///
/// Files are compared by inode, size and modification time; hidden names (a writer's
/// temporary files) and anything that is not a regular file are left out.
///
/// ```swift
/// let before = StoreSnapshot(of: store)
/// try runCommand()
/// let changed = StoreSnapshot(of: store).changedPaths(since: before)  // ["people/katie-bell-9dw42k.json"]
/// ```
package struct StoreSnapshot: Sendable, Equatable {
    /// What identifies one version of a file: a rename over it changes the inode, a write its
    /// size or modification time.
    private struct Signature: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    /// The signatures by path relative to the store's root (`people/<key>.json`).
    private let files: [String: Signature]

    /// Lists the store's files at `store` now. A missing store or folder lists as empty.
    package init(of store: URL) {
        var files: [String: Signature] = [:]
        let root = store.path(percentEncoded: false)
        func add(_ relative: String) {
            var status = stat()
            guard lstat(root + "/" + relative, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
            let signature = FileSignature(status)
            files[relative] = Signature(inode: signature.inode, size: signature.size, modified: signature.modified)
        }
        add(StoreLayout.manifestName)
        for folder in [StoreLayout.peopleFolderName, StoreLayout.groupsFolderName] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
            for name in names where !name.hasPrefix(".") { add(folder + "/" + name) }
        }
        self.files = files
    }

    /// Whether the store had the file at `path` (relative to its root) when the snapshot was taken.
    package func contains(_ path: String) -> Bool { files[path] != nil }

    /// The paths created, changed or removed between `earlier` and this snapshot, sorted.
    package func changedPaths(since earlier: StoreSnapshot) -> [String] {
        Set(earlier.files.keys).union(files.keys).filter { earlier.files[$0] != files[$0] }.sorted()
    }
}
