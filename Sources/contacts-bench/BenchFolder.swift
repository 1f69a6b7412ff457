import Foundation
import PlainContacts

/// The folder of files a fidelity measure reads (`--fidelity DIR`, `--import-fidelity DIR`).
///
/// ```swift
/// for file in try BenchFolder.files(under: folder, option: "--fidelity", where: isCard) {
///     let data = try BenchFolder.read(file.url)
/// }
/// ```
enum BenchFolder {
    /// The regular files under `folder` (recursively) that `keep` keeps, sorted by their path
    /// relative to `folder` (`name`).
    ///
    /// - Throws: ``UsageError`` naming `option` when `folder` is not a folder;
    ///   ``ContactsError/Code/io`` when it cannot be listed.
    static func files(
        under folder: URL, option: String, where keep: (URL) -> Bool = { _ in true }
    ) throws -> [(url: URL, name: String)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError("\(option) needs a folder; \(folder.path) is none")
        }
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { throw ContactsError(.io, "cannot list the folder", path: folder.path) }
        let root = folder.standardizedFileURL.path
        var files: [(url: URL, name: String)] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, keep(url) else { continue }
            let path = url.standardizedFileURL.path
            files.append((url, path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// A file's bytes.
    ///
    /// - Throws: ``ContactsError/Code/io`` naming the file when it cannot be read.
    static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ContactsError(.io, "cannot read the file", path: url.path, underlying: error)
        }
    }
}
