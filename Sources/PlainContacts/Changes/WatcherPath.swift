/// What a file of a store's folder means to the watcher, decided from its path relative to the
/// store's root.
///
/// ```swift
/// WatcherPath(relativePath: "people/katie-bell-7kq2mx.jpg")  // .personSidecar("katie-bell-7kq2mx")
/// WatcherPath(relativePath: ".contacts/journal")             // nil: never watched
/// ```
enum WatcherPath: Hashable, Sendable {
    /// `store.json`, the manifest that holds the store's settings.
    case manifest
    /// `people/<key>.json`.
    case person(key: String)
    /// `people/<key>.<extension>` other than JSON, such as the person's image.
    case personSidecar(key: String)
    /// `groups/<key>.json`.
    case group(key: String)
    /// `groups/<key>.members`.
    case groupMembers(key: String)

    /// A folder of the store the watcher looks into.
    enum Folder: CaseIterable, Sendable {
        case root, people, groups

        /// The folder's path relative to the store's root; empty for the root.
        var relativePath: String {
            switch self {
            case .root: ""
            case .people: "people"
            case .groups: "groups"
            }
        }
    }

    static let manifestName = "store.json"
    static let journalPath = ".contacts/journal"

    /// Classifies the file `name` of `folder`, or returns `nil` for a file the watcher ignores:
    /// hidden files, editors' backups and anything else outside the store's format.
    init?(folder: Folder, name: String) {
        guard !name.isEmpty, !name.hasPrefix("."), !name.hasSuffix("~"), !name.utf8.contains(UInt8(ascii: "/")) else { return nil }
        switch folder {
        case .root:
            guard name == WatcherPath.manifestName else { return nil }
            self = .manifest
        case .people:
            guard let (key, fileExtension) = WatcherPath.split(name) else { return nil }
            self = fileExtension == "json" ? .person(key: key) : .personSidecar(key: key)
        case .groups:
            guard let (key, fileExtension) = WatcherPath.split(name) else { return nil }
            switch fileExtension {
            case "json": self = .group(key: key)
            case "members": self = .groupMembers(key: key)
            default: return nil
            }
        }
    }

    /// Classifies a path relative to the store's root, such as `people/ann-2x9kqp.json`.
    init?(relativePath: String) {
        if relativePath == WatcherPath.manifestName {
            self = .manifest
            return
        }
        guard let slash = relativePath.firstIndex(of: "/") else { return nil }
        let name = String(relativePath[relativePath.index(after: slash)...])
        switch relativePath[..<slash] {
        case "people": self.init(folder: .people, name: name)
        case "groups": self.init(folder: .groups, name: name)
        default: return nil
        }
    }

    /// The path of the file that holds the record ID this file belongs to, or `nil` for the
    /// manifest.
    var recordFilePath: String? {
        switch self {
        case .manifest: nil
        case .person(let key), .personSidecar(let key): "people/\(key).json"
        case .group(let key), .groupMembers(let key): "groups/\(key).json"
        }
    }

    /// Whether the file's own bytes hold a record ID.
    var holdsRecordID: Bool {
        switch self {
        case .person, .group: true
        case .manifest, .personSidecar, .groupMembers: false
        }
    }

    /// Whether the file belongs to a group rather than a person.
    var isGroupFile: Bool {
        switch self {
        case .group, .groupMembers: true
        case .manifest, .person, .personSidecar: false
        }
    }

    /// Whether the watcher may skip reading the file while its status is unchanged: images can
    /// be large, so they are read only when their size, time or inode moved.
    var isReadOnlyWhenStatusChanges: Bool {
        if case .personSidecar = self { return true }
        return false
    }

    /// Splits `key.extension` at the last dot; `nil` without an extension or key.
    private static func split(_ name: String) -> (key: String, fileExtension: String)? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let key = String(name[..<dot])
        let fileExtension = String(name[name.index(after: dot)...])
        guard !key.isEmpty, !fileExtension.isEmpty else { return nil }
        return (key, fileExtension)
    }
}
