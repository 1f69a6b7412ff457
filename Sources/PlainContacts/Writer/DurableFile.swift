import FoundationEssentials

/// Durable replacement of one small file outside a transaction, such as the store's manifest
/// or private settings.
///
/// The new bytes go to a temporary file in the same folder, named `.<name>.tmp-<random>`,
/// which is synced and then renamed over the target; finally the folder is synced. Readers
/// see either the old or the new file, never a mix, and after a crash the new file is either
/// fully there or not at all. The file's mode is exactly `0600`.
///
/// ```swift
/// try DurableFile.write(manifestData, to: root.appending(path: "store.json"))
/// let changed = try DurableFile.writeIfChanged(settings, to: settingsURL)
/// ```
enum DurableFile {
    /// Replaces (or creates) the file at `url` with exactly `data`.
    ///
    /// The folder must exist. On any failure the temporary file is removed and the old file,
    /// if any, is left as it was.
    ///
    /// - Throws: `ContactsError` `.io` if writing, syncing or renaming fails.
    static func write(_ data: Data, to url: URL) throws {
        let target = StorePaths.path(of: url)
        let folder = PosixFileSystem.parent(of: target)
        let temporary = folder + "/." + PosixFileSystem.lastComponent(of: target) + ".tmp-"
            + PosixFileSystem.randomHex(byteCount: 8)
        let file = try PosixFile.createNew(temporary)
        do {
            do {
                try file.write(data)
                try file.sync()
            } catch {
                file.closeIgnoringErrors()
                throw error
            }
            try file.close()
            let code = PosixFileSystem.rename(temporary, to: target)
            guard code == 0 else {
                throw PosixError.error("could not replace file", path: target, code: code, call: "rename")
            }
        } catch {
            try? PosixFileSystem.removeFile(temporary)
            throw error
        }
        try PosixFileSystem.syncFolder(folder.isEmpty ? "/" : folder)
    }

    /// Removes the temporary files that writes of `url` killed before their rename left beside
    /// it (`.<name>.tmp-…`). Call it only while no other process can be writing `url`, such as
    /// under the store's exclusive lock for a file only saves write.
    ///
    /// - Throws: `ContactsError` when the folder cannot be listed or a leftover removed.
    static func removeLeftovers(of url: URL) throws {
        let target = StorePaths.path(of: url)
        let folder = PosixFileSystem.parent(of: target)
        let prefix = "." + PosixFileSystem.lastComponent(of: target) + ".tmp-"
        var removed = false
        for name in try PosixFileSystem.entries(of: folder.isEmpty ? "/" : folder) where name.hasPrefix(prefix) {
            try PosixFileSystem.removeFile(folder + "/" + name)
            removed = true
        }
        if removed { try PosixFileSystem.syncFolder(folder.isEmpty ? "/" : folder) }
    }

    /// Replaces the file at `url` with `data` unless it already holds exactly these bytes.
    ///
    /// - Returns: `true` if the file was written, `false` if it was left untouched.
    /// - Throws: `ContactsError` `.io` if the existing file cannot be read or the write fails.
    @discardableResult
    static func writeIfChanged(_ data: Data, to url: URL) throws -> Bool {
        let target = StorePaths.path(of: url)
        if PosixFileSystem.exists(target) {
            let file = try PosixFile.openForReading(target)
            defer { file.closeIgnoringErrors() }
            if try file.readToEnd() == data { return false }
        }
        try write(data, to: url)
        return true
    }
}
