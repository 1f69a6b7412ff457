#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// The contents of a device-local JSON settings file in the store's `.contacts/` folder
/// (`remotes.json`, `users.json`): parsed from bytes, written back canonically, and removed
/// once it holds nothing.
protocol DeviceSettingsContents {
    /// No entries.
    init()
    /// Parses the file's bytes; `path` names the file in errors.
    init(data: Data, path: String) throws(ContactsError)
    /// The canonical bytes of the file.
    var data: Data { get }
    /// Whether the file would hold nothing worth keeping.
    var isEmpty: Bool { get }
}

/// Reading and updating one device-local settings file: read without a lock (writers replace
/// it by rename), changed under its own lock file, private (0600 in a 0700 folder), written only
/// when its bytes change.
///
/// ```swift
/// let file = DeviceSettingsFile<Settings>(url: fileURL, lockFile: lockURL, folder: privateFolder)
/// try file.update { settings in settings.entries[name] = value }
/// ```
struct DeviceSettingsFile<Contents: DeviceSettingsContents> {
    /// The settings file.
    let url: URL
    /// The lock that serializes its writers.
    let lockFile: URL
    /// The private folder holding both.
    let folder: URL

    /// A settings file at `url`, changed under `lockFile`, both in the private `folder`.
    init(url: URL, lockFile: URL, folder: URL) {
        self.url = url
        self.lockFile = lockFile
        self.folder = folder
    }

    /// Reads the file without the lock: a writer replaces it by rename, so the bytes read are
    /// one version or the other. A missing file reads as empty.
    ///
    /// - Throws: the reading errors of ``DeviceFiles`` and the parsing errors of `Contents`.
    func read() throws -> Contents {
        guard let data = try DeviceFiles.read(url) else { return Contents() }
        return try Contents(data: data, path: url.path(percentEncoded: false))
    }

    /// Reads the file under the lock, applies `change`, and writes the result if its bytes
    /// differ (removing the file once it holds nothing). Temporary files left by a writer that
    /// died are removed first: while the lock is held, no one else is writing.
    ///
    /// - Throws: what `change` throws, and the errors of reading, locking and writing.
    func update(_ change: (inout Contents) throws -> Void) throws {
        try DeviceFiles.makePrivateFolder(folder)
        let lockPath = lockFile.path(percentEncoded: false)
        let busy = ContactsError(.busy, "the settings file is locked", path: lockPath)
        try FileLock.withLock(lockPath, in: folder.path(percentEncoded: false), .exclusive, waiting: .forever,
            action: "could not lock the settings file", busy: busy) {
            try DurableFile.removeLeftovers(of: url)
            let old = try DeviceFiles.read(url)
            var contents = try old.map { try Contents(data: $0, path: url.path(percentEncoded: false)) } ?? Contents()
            try change(&contents)
            if contents.isEmpty {
                if old != nil { try DurableFile.remove(url) }
                return
            }
            let new = contents.data
            if new != old { try DurableFile.write(new, to: url) }
        }
    }
}
