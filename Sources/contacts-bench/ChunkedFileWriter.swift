import Foundation
import PlainContacts

/// Writes text to a new file through a buffer, so that large generated files are written in
/// a few big writes.
final class ChunkedFileWriter {
    private let handle: FileHandle
    private let path: String
    private var buffer = Data()
    private let chunkSize = 1 << 20

    /// Creates (or truncates) the file.
    ///
    /// - Throws: ``ContactsError/Code/io`` when it cannot be created.
    init(url: URL) throws {
        path = url.path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ContactsError(.io, "cannot create the file", path: path)
        }
        self.handle = handle
    }

    /// Appends text, writing out the buffer when it is full.
    ///
    /// - Throws: ``ContactsError/Code/io`` when writing fails.
    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= chunkSize { try flush() }
    }

    /// Writes out what is buffered.
    ///
    /// - Throws: ``ContactsError/Code/io`` when writing fails.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw ContactsError(.io, "cannot write the file", path: path, underlying: error)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Closes the file; unflushed text is dropped.
    func close() {
        try? handle.close()
    }
}
