import Foundation

/// Where the store is: `--store DIR`, else the store the current folder is in (as Git finds the
/// repository you are in), else `$CONTACTS_DIR`, else `$XDG_DATA_HOME/contacts`, else
/// `~/.local/share/contacts`. Empty variables count as unset; relative paths are taken from the
/// current folder.
///
/// The store you are in comes before `$CONTACTS_DIR` because the variable names a default,
/// usually set once in a shell's profile, while changing into a store's folder says which one
/// is meant now.
struct StoreLocation {
    let option: String?
    let environment: [String: String]
    /// The folder commands run in.
    var currentFolder = FileManager.default.currentDirectoryPath

    var url: URL {
        if let option, !option.isEmpty { return Self.absolute(option) }
        if let enclosing = Self.enclosingStore(of: currentFolder) { return enclosing }
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

    /// The store that `folder` is, or is inside of: the nearest folder, from `folder` up,
    /// whose `store.json` is a store's manifest (a JSON object with a `format`), so that
    /// another program's `store.json` is not taken for one.
    static func enclosingStore(of folder: String) -> URL? {
        var candidate = URL(filePath: folder, directoryHint: .isDirectory).standardizedFileURL
        while true {
            let manifest = candidate.appending(path: "store.json", directoryHint: .notDirectory)
            if let data = FileManager.default.contents(atPath: manifest.path(percentEncoded: false)),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["format"] is NSNumber
            {
                return candidate
            }
            let parent = candidate.deletingLastPathComponent().standardizedFileURL
            guard parent.path(percentEncoded: false) != candidate.path(percentEncoded: false) else { return nil }
            candidate = parent
        }
    }
}
