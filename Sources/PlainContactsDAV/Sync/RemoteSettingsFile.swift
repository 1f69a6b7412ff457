import FoundationEssentials
import PlainContacts

/// The remotes of one store: the server address books it syncs with, kept in
/// `<store>/.contacts/remotes.json`.
///
/// The file is device-local: `.contacts/` is in the store's `.gitignore`, so a pushed
/// repository never carries an account. It is created with mode 0600 in a 0700 folder
/// whatever the umask, replaced atomically and durably, and changed in read-modify-write
/// cycles under an exclusive lock on `<store>/.contacts/remotes.lock`, as the access consent
/// file is (see ``AccessConsentStore``). It holds no password (see ``RemoteSettings``).
///
/// ```swift
/// let file = RemoteSettingsFile(storeURL: storeURL)
/// try file.add(RemoteSettings(name: try RemoteName("radicale"), url: url, user: "kim"))
/// for remote in try file.remotes() {
///     print(remote.name, remote.url)
/// }
/// ```
package struct RemoteSettingsFile: Sendable {
    /// The name of the file inside the store's private folder.
    static let fileName = "remotes.json"
    /// The name of the folder, inside the store's private folder, of every remote's sync status.
    static let statusFolderName = "sync"

    /// The store's folder.
    let storeURL: URL

    /// The remotes of the store at `storeURL`. Nothing is read or created until a method is
    /// called.
    package init(storeURL: URL) {
        self.storeURL = storeURL
    }

    /// The settings file, `<store>/.contacts/remotes.json`.
    var fileURL: URL { privateFolder.appending(path: RemoteSettingsFile.fileName) }

    /// The folder of a remote's sync status files, `<store>/.contacts/sync/NAME/`. It is not
    /// created here; ``remove(named:)`` removes it with the settings.
    package func statusFolder(for name: RemoteName) -> URL {
        privateFolder.appending(path: RemoteSettingsFile.statusFolderName, directoryHint: .isDirectory)
            .appending(path: name.rawValue, directoryHint: .isDirectory)
    }

    // MARK: Reading

    /// Every remote, sorted by name; none when the file does not exist.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` if the file cannot be read as remotes
    ///   (never taken for an empty file), ``ContactsError/Code/io`` or
    ///   ``ContactsError/Code/permissionDenied`` if it cannot be read at all.
    package func remotes() throws -> [RemoteSettings] {
        try settings.read().remotes.values.sorted { $0.name < $1.name }
    }

    /// The remote named `name`, or `nil`.
    ///
    /// - Throws: as ``remotes()``.
    package func remote(named name: RemoteName) throws -> RemoteSettings? {
        try settings.read().remotes[name]
    }

    /// Checks that no remote has `name` yet, so that a command can refuse before any slow
    /// work; ``add(_:)`` checks again under the lock.
    ///
    /// - Throws: `SyncError.Code.remoteExists` if a remote has that name; otherwise as
    ///   ``remotes()``.
    package func checkNameIsFree(_ name: RemoteName) throws {
        if try remote(named: name) != nil { throw exists(name) }
    }

    // MARK: Changing

    /// Adds a remote. A sync status folder left under its name (by a removal that was cut
    /// short) is removed first, so a new remote never starts from another's status.
    ///
    /// - Throws: `SyncError.Code.remoteExists` if a remote has that name;
    ///   ``ContactsError/Code/malformedFile`` if the file is damaged (nothing is written);
    ///   ``ContactsError/Code/io`` if the store folder is missing or a file cannot be written.
    package func add(_ remote: RemoteSettings) throws {
        try settings.update { contents in
            guard contents.remotes[remote.name] == nil else { throw exists(remote.name) }
            try removeStatusFolder(of: remote.name)
            contents.remotes[remote.name] = remote
        }
    }

    /// Replaces the settings of an existing remote (of the same name), keeping what the others
    /// hold; a sync records its own keys this way, in ``RemoteSettings/unknownFields``.
    ///
    /// - Throws: `SyncError.Code.remoteNotFound` if no remote has that name; otherwise as
    ///   ``add(_:)``.
    func replace(_ remote: RemoteSettings) throws {
        try settings.update { contents in
            guard contents.remotes[remote.name] != nil else { throw notFound(remote.name) }
            contents.remotes[remote.name] = remote
        }
    }

    /// Removes a remote: first its sync status folder, then its settings, so that a removal cut
    /// short leaves at worst a remote whose next sync starts afresh (matching cards by UID).
    /// The file is removed once it holds nothing.
    ///
    /// - Throws: `SyncError.Code.remoteNotFound` if no remote has that name; otherwise as
    ///   ``add(_:)``.
    package func remove(named name: RemoteName) throws {
        try settings.update { contents in
            guard contents.remotes[name] != nil else { throw notFound(name) }
            try removeStatusFolder(of: name)
            contents.remotes[name] = nil
        }
    }

    // MARK: Files

    private var privateFolder: URL { StoreLayout(root: storeURL).privateFolder }
    private var lockFile: URL { privateFolder.appending(path: "remotes.lock") }

    /// The file, read and updated as every device-local settings file is.
    private var settings: DeviceSettingsFile<Contents> {
        DeviceSettingsFile(url: fileURL, lockFile: lockFile, folder: privateFolder)
    }

    private func removeStatusFolder(of name: RemoteName) throws {
        try PosixFileSystem.removeTree(PosixFileSystem.path(of: statusFolder(for: name)))
    }

    private func exists(_ name: RemoteName) -> SyncError {
        SyncError(.remoteExists,
            "a remote named \"\(name)\" exists already; remove it first with `contacts remote rm \(name)`",
            path: fileURL.path(percentEncoded: false))
    }

    private func notFound(_ name: RemoteName) -> SyncError {
        SyncError(.remoteNotFound, "no remote is named \"\(name)\"", path: fileURL.path(percentEncoded: false))
    }
}
