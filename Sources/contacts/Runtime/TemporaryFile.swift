import Foundation
import Glibc

/// A private temporary file (mode 0600) for text the user edits.
struct TemporaryFile {
    /// The file's path.
    let path: String

    /// Creates `<TMPDIR>/<prefix>XXXXXX<suffix>` holding `contents`.
    ///
    /// - Throws: exit status 1 when the file cannot be created or written.
    static func create(
        prefix: String, suffix: String, contents: Data, environment: [String: String]
    ) throws(CLIError) -> TemporaryFile {
        var folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        var template = Array("\(folder)/\(prefix)XXXXXX\(suffix)".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return Int32(-1) }
            return mkstemps(base, Int32(suffix.utf8.count))
        }
        guard descriptor >= 0 else {
            throw CLIError.failure("cannot create a temporary file in \(folder) (\(String(cString: strerror(errno))))")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(descriptor, 0o600)
        let written = FileDescriptorWriter.writeAll(Array(contents), to: descriptor)
        close(descriptor)
        guard written else {
            unlink(path)
            throw CLIError.failure("cannot write the temporary file \(path)")
        }
        return TemporaryFile(path: path)
    }

    /// The file's current contents.
    ///
    /// - Throws: exit status 66 when the file is gone or unreadable.
    func read() throws(CLIError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.noInput("cannot read \(path) any more")
        }
        return data
    }

    /// Deletes the file.
    func remove() {
        unlink(path)
    }
}
