import FoundationEssentials

/// One file change of a commit, named by its path relative to the store's root folder.
///
/// ```swift
/// let changes: [FileChange] = [
///     .write(personJSON, to: "people/katie-bell-x7k2.json"),
///     .delete("people/old-entry-a1b2.json"),
/// ]
/// try StoreTransaction.commit(changes, storeRoot: storeURL)
/// ```
struct FileChange: Sendable, Equatable {
    /// What happens to the file.
    enum Kind: Sendable, Equatable {
        /// The file gets exactly these bytes, created if missing (mode `0600`).
        case write(Data)
        /// The file is removed; a file that is already missing is not an error.
        case delete
    }

    /// The path relative to the store's root, with `/` between components ("groups/family-k3m9.members").
    var path: String
    /// What happens to the file.
    var kind: Kind

    /// Creates a change of `path`.
    init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// A change that gives the file at `path` the bytes `data`.
    static func write(_ data: Data, to path: String) -> FileChange {
        FileChange(path: path, kind: .write(data))
    }

    /// A change that removes the file at `path`.
    static func delete(_ path: String) -> FileChange {
        FileChange(path: path, kind: .delete)
    }

    /// Whether `path` names a file inside the store that a commit may change.
    ///
    /// The path must be relative, have no empty, `.` or `..` component, contain no NUL byte, and
    /// stay out of the private `.contacts` folder.
    static func isAcceptablePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.utf8.contains(0) else { return false }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        let hasBadComponent = components.contains { $0.isEmpty || $0 == "." || $0 == ".." }
        return !hasBadComponent && components.first.map(String.init) != StorePaths.privateFolderName
    }
}
