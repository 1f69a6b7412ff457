import FoundationEssentials
import Glibc

/// Durable replacement of one file on its own, outside any transaction: a settings file, a
/// state file, a cache, or a file the user names.
///
/// The new bytes go to a temporary file in the same folder, named `.<name>.tmp-<random>`,
/// which is synced and then renamed over the target; finally the folder is synced. Readers
/// see either the old or the new file, never a mix, and after a crash the new file is either
/// fully there or not at all. The file's mode is exactly `0600` unless the caller gives
/// another one, whatever the umask.
///
/// ```swift
/// try DurableFile.write(settingsData, to: folder.appending(path: "settings.json"))
/// let changed = try DurableFile.writeIfChanged(settings, to: settingsURL)
/// try DurableFile.remove(settingsURL)
/// ```
package enum DurableFile<Failures: FileFailures> {
    private typealias FileSystem = PosixFileSystem<Failures>


    /// How far a write goes to survive a crash.
    package enum Durability: Sendable {
        /// The file and its folder are synced: after a crash the new file is fully there or
        /// the old one is.
        case synced
        /// Nothing is synced, for caches rebuilt when lost: a crash may bring back the old
        /// file or an empty one, but a reader never sees a mix.
        case cache
    }

    /// Replaces (or creates) the file at `url` with exactly `data`.
    ///
    /// The folder must exist. On any failure the temporary file is removed and the old file,
    /// if any, is left as it was.
    ///
    /// ```swift
    /// try DurableFile.write(Data("{}\n".utf8), to: settingsURL)
    /// try DurableFile.write(exported, to: outputURL, mode: 0o644)
    /// ```
    ///
    /// - Throws: The error of `Failures` if creating, writing, syncing or renaming fails.
    package static func write(
        _ data: Data, to url: URL, mode: mode_t = 0o600, durability: Durability = .synced
    ) throws {
        let target = FileSystem.path(of: url)
        let folder = FileSystem.parent(of: target)
        let temporary = folder + "/." + FileSystem.lastComponent(of: target) + temporaryMarker
            + FileSystem.randomHex(byteCount: 8)
        let file = try PosixFile<Failures>.createNew(temporary)
        do {
            do {
                if mode != 0o600 { try file.setPermissions(mode) }
                try file.write(data)
                if durability == .synced { try file.sync() }
            } catch {
                file.closeIgnoringErrors()
                throw error
            }
            try file.close()
            let code = FileSystem.rename(temporary, to: target)
            guard code == 0 else {
                throw Failures.error("could not replace file", path: target, code: code, call: "rename")
            }
        } catch {
            try? FileSystem.removeFile(temporary)
            throw error
        }
        if durability == .synced { try FileSystem.syncFolder(folder.isEmpty ? "/" : folder) }
    }

    /// Replaces the file at `url` with `data` unless it already holds exactly these bytes, so
    /// that an unchanged file keeps its bytes, its inode and its modification time.
    ///
    /// ```swift
    /// if try DurableFile.writeIfChanged(status, to: statusURL) { print("saved") }
    /// ```
    ///
    /// - Returns: `true` if the file was written, `false` if it was left untouched.
    /// - Throws: The error of `Failures` if the existing file cannot be read or the write fails.
    @discardableResult
    package static func writeIfChanged(_ data: Data, to url: URL, mode: mode_t = 0o600) throws -> Bool {
        let target = FileSystem.path(of: url)
        if FileSystem.exists(target) {
            let file = try PosixFile<Failures>.openForReading(target)
            defer { file.closeIgnoringErrors() }
            if try file.readToEnd() == data { return false }
        }
        try write(data, to: url, mode: mode)
        return true
    }

    /// Removes the file at `url` and syncs its folder; a missing file is not an error.
    ///
    /// ```swift
    /// try DurableFile.remove(consentURL)
    /// ```
    ///
    /// - Throws: The error of `Failures` if the file exists but cannot be removed, or the
    ///   folder cannot be synced.
    package static func remove(_ url: URL) throws {
        let target = FileSystem.path(of: url)
        guard FileSystem.exists(target) else { return }
        try FileSystem.removeFile(target)
        let folder = FileSystem.parent(of: target)
        try FileSystem.syncFolder(folder.isEmpty ? "/" : folder)
    }

    /// Removes the temporary files that writes of `url` killed before their rename left beside
    /// it: `.<name>.tmp-…`, and `.<name>.<random>.tmp` as earlier versions named them. Call it
    /// only while no other process can be writing `url`, such as under a ``FileLock`` that every
    /// writer of `url` takes.
    ///
    /// ```swift
    /// try DurableFile.removeLeftovers(of: settingsURL)
    /// ```
    ///
    /// - Throws: The error of `Failures` when the folder cannot be listed or a leftover removed.
    package static func removeLeftovers(of url: URL) throws {
        let target = FileSystem.path(of: url)
        let folder = FileSystem.parent(of: target)
        let name = "." + FileSystem.lastComponent(of: target)
        var removed = false
        for entry in try FileSystem.entries(of: folder.isEmpty ? "/" : folder)
        where entry.hasPrefix(name + temporaryMarker) || (entry.hasPrefix(name + ".") && entry.hasSuffix(".tmp")) {
            try FileSystem.removeFile(folder + "/" + entry)
            removed = true
        }
        if removed { try FileSystem.syncFolder(folder.isEmpty ? "/" : folder) }
    }

    /// What follows a file's name in the names of its temporary files.
    private static var temporaryMarker: String { ".tmp-" }
}
