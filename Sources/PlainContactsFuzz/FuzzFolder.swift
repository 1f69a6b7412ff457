import Foundation
import PlainContacts

/// The files of a store a fuzz case works on, read whole so that a case can tell what it
/// changed and put everything back before the next one.
enum FuzzFolder {
    /// Every file under `root` by relative path, leaving out the paths that start with
    /// `excluded` (such as `.contacts`, whose index a case may legitimately update).
    static func files(in root: URL, excluding excluded: String? = nil) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return files }
        for case let path as String in enumerator {
            if let excluded, path.hasPrefix(excluded) { continue }
            var isFolder: ObjCBool = false
            let url = root.appending(path: path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    /// Puts back every file of `original` under `root` and removes any other (outside the
    /// paths starting with `excluded`).
    static func restore(_ original: [String: Data], in root: URL, excluding excluded: String? = nil) throws {
        let now = try files(in: root, excluding: excluded)
        for (path, bytes) in original where now[path] != bytes {
            try bytes.write(to: root.appending(path: path), options: .atomic)
        }
        for path in now.keys where original[path] == nil {
            try FileManager.default.removeItem(at: root.appending(path: path))
        }
    }
}
