import FoundationEssentials

extension RecordFileMerger {
    /// Writes the merged bytes over the file at `path`, Git's copy of this side's version
    /// (`%A`), which is where a merge driver leaves its result.
    ///
    /// The bytes go to a temporary file beside it that is synced and renamed over it, and the
    /// folder is synced (see ``DurableFile``): a crash leaves this side's version or the merged
    /// one, never a mix. A relative `path` is taken from the current folder.
    ///
    /// ```swift
    /// let (merged, conflicts) = try RecordFileMerger.merge(base: base, ours: ours, theirs: theirs, path: path)
    /// try RecordFileMerger.writeMerged(merged, to: oursPath)
    /// ```
    ///
    /// - Throws: `ContactsError` `.io` when the file cannot be written; the old bytes are then
    ///   left as they were.
    package static func writeMerged(_ merged: Data, to path: String) throws {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        try DurableFile.write(merged, to: URL(filePath: absolute))
    }
}
