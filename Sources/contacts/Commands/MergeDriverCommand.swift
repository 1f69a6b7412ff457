import Foundation
import PlainContacts
import PlainContactsSystem

/// `contacts merge-driver BASE OURS THEIRS [PATH]`: Git's `merge=contacts` driver.
enum MergeDriverCommand: Command {
    static let name = "merge-driver"
    static let positionals: Positionals = [.one("BASE"), .one("OURS"), .one("THEIRS"), .optional("PATH")]
    static let summary = "Merge three versions of a store file property by property (Git's merge driver)."
    static let discussion = """
        Git runs this as `contacts merge-driver %O %A %B %P` once `contacts git-setup` has
        configured the clone. BASE is the common ancestor (empty when both sides added the file),
        OURS this side's version, THEIRS the other side's, PATH the file's path in the repository,
        which tells the kind of file. Without PATH (a configuration older than %P) every version
        must read as the same kind, else the file is left as a conflict. The merged record is
        written into OURS, in canonical form.

        Person and group files merge property by property and multi-values entry by entry; the
        modification date takes the later time. Membership files merge as sets of lines;
        store.json setting by setting. A property changed differently on both sides is kept as
        this side's value between Git conflict markers, with the other side's value below.

        Exit status: 0 merged cleanly; 1 conflicts remain (marked in OURS), or a version could
        not be read (a damaged record, a membership line that is not a key, versions of different
        kinds) and Git's own line merge was used instead.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let (basePath, oursPath, theirsPath) = (words[0], words[1], words[2])
        let path = words.count > 3 ? words[3] : oursPath
        let base = try read(basePath)
        let ours = try read(oursPath)
        let theirs = try read(theirsPath)
        let result: (merged: Data, conflicts: [String])
        do {
            result = try RecordFileMerger.merge(base: base.isEmpty ? nil : base, ours: ours, theirs: theirs, path: path)
        } catch let error as ContactsError {
            try lineMerge(base: basePath, ours: oursPath, theirs: theirsPath)
            throw CLIError.failure("\(error.description); merged line by line instead, resolve the conflict by hand")
        }
        do {
            try writeMerged(result.merged, to: oursPath)
        } catch {
            throw CLIError.failure("cannot write the merged file \(oursPath) (\(error))")
        }
        guard result.conflicts.isEmpty else {
            throw CLIError.failure(
                "\(path): conflicting changes to \(result.conflicts.joined(separator: ", ")); "
                    + "both sides are shown between conflict markers")
        }
    }

    private static func read(_ path: String) throws(CLIError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.noInput("cannot read \(path)")
        }
        return data
    }

    /// Writes the merged bytes over the file at `path`, Git's copy of this side's version
    /// (`%A`), which is where a merge driver leaves its result.
    ///
    /// The bytes go to a temporary file beside it that is synced and renamed over it, and the
    /// folder is synced (the library's durable write, `DurableFile`): a crash leaves this
    /// side's version or the merged one, never a mix. A relative `path` is taken from the
    /// current folder.
    ///
    /// - Throws: `ContactsError` `.io` when the file cannot be written; the old bytes are then
    ///   left as they were.
    static func writeMerged(_ merged: Data, to path: String) throws {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        try DurableFile<PosixError>.write(merged, to: URL(filePath: absolute))
    }

    /// Git's own three-way line merge, writing conflict markers into OURS.
    private static func lineMerge(base: String, ours: String, theirs: String) throws(CLIError) {
        let folder = URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory)
        _ = try GitRunner.run(["merge-file", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs], in: folder)
    }
}
