import Foundation

/// Where the store is: `--store DIR`, else `$CONTACTS_DIR`, else `$XDG_DATA_HOME/contacts`,
/// else `~/.local/share/contacts`. Empty variables count as unset; relative paths are taken
/// from the current folder.
struct StoreLocation {
    let option: String?
    let environment: [String: String]

    var url: URL {
        if let option, !option.isEmpty { return Self.absolute(option) }
        if let folder = environment["CONTACTS_DIR"], !folder.isEmpty { return Self.absolute(folder) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return Self.absolute(data).appending(path: "contacts", directoryHint: .isDirectory)
        }
        return home.appending(path: ".local/share/contacts", directoryHint: .isDirectory)
    }

    private var home: URL {
        if let home = environment["HOME"], !home.isEmpty { return Self.absolute(home) }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    /// An absolute, standardized folder URL for a path typed by the user (`~` expanded).
    static func absolute(_ path: String) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        let base = URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory)
        return URL(filePath: expanded, directoryHint: .isDirectory, relativeTo: base).standardizedFileURL
    }
}
