import Glibc

/// Replaces a file the user named with new bytes, whole or not at all.
///
/// The bytes go to a temporary file in the same folder, which is synced and renamed over the
/// target; then the folder is synced. A file that already exists keeps its permissions; a new
/// one gets those the umask allows.
enum OutputFile {
    /// Writes `bytes` to `path`.
    ///
    /// - Throws: exit status 1 when the folder does not exist or a step fails; the old file,
    ///   if any, is then left as it was.
    static func replace(_ path: String, with bytes: [UInt8]) throws(CLIError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !fileName.isEmpty else { throw CLIError.failure("\(path) names a folder, not a file") }
        var template = Array("\(folder)/.\(fileName).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return Int32(-1) }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw failure("cannot create a file in \(folder)") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = FileDescriptorWriter.writeAll(bytes, to: descriptor)
        written = written && fchmod(descriptor, mode(forReplacing: path)) == 0
        written = written && fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard written, closed else {
            let error = failure("cannot write \(path)")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot replace \(path)")
            unlink(temporary)
            throw error
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
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

    /// A failure naming `what` and the system's reason.
    private static func failure(_ what: String) -> CLIError {
        CLIError.failure("\(what) (\(String(cString: strerror(errno))))")
    }
}
