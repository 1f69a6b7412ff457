import Foundation
import Glibc
import PlainContacts
import PlainContactsSystem

/// Replaces a file the user named with new bytes, whole or not at all, through the library's
/// one durable write (`DurableFile`, failing with the store's errors): a temporary file in the same folder, synced and renamed
/// over the target, then the folder synced. A file that already exists keeps its permissions;
/// a new one gets those the umask allows.
enum OutputFile {
    /// Writes `bytes` to `path`.
    ///
    /// - Throws: exit status 1 when the folder does not exist or a step fails; the old file,
    ///   if any, is then left as it was.
    static func replace(_ path: String, with bytes: [UInt8]) throws(CLIError) {
        let fileName = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard !fileName.isEmpty else { throw CLIError.failure("\(path) names a folder, not a file") }
        do {
            try DurableFile<PosixError>.write(Data(bytes), to: URL(filePath: path), mode: mode(forReplacing: path))
        } catch let error as ContactsError {
            throw CLIError.failure("cannot write \(path) (\(error.message))")
        } catch {
            throw CLIError.failure("cannot write \(path) (\(error))")
        }
    }

    /// The permissions of the file at `path`, or those a new file gets under the umask.
    private static func mode(forReplacing path: String) -> mode_t {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            return status.st_mode & 0o7777
        }
        let mask = umask(0o022)
        umask(mask)
        return 0o666 & ~mask
    }

}
