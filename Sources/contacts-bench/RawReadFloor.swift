import Foundation
import PlainContacts
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The least any implementation must do to show a whole store: list `people/` and read every
/// record file's bytes with `open`, `read` and `close`, parsing nothing.
///
/// Every other timed figure is reported as a multiple of this one.
struct RawReadFloor {
    /// The store's `people` folder.
    let folder: URL

    /// What one pass read.
    struct Pass {
        var files = 0
        var bytes = 0
    }

    /// Lists the folder and reads each `.json` file in it once, opening each relative to the
    /// open folder (the cheapest way to reach a file), so that the floor is a tight one.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the folder or a file cannot be read.
    func readAll() throws -> Pass {
        let folderPath = folder.path
        guard let directory = opendir(folderPath) else {
            throw ContactsError(.io, "cannot list the people folder (error \(errno))", path: folderPath)
        }
        defer { closedir(directory) }
        let folderDescriptor = dirfd(directory)
        var pass = Pass()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while let entry = readdir(directory) {
            let isRecord = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = raw.prefix { $0 != 0 }
                return name.count > 5 && name.first != UInt8(ascii: ".") && name.suffix(5).elementsEqual(".json".utf8)
            }
            guard isRecord else { continue }
            let descriptor = withUnsafePointer(to: entry.pointee.d_name) { name in
                name.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) {
                    openat(folderDescriptor, $0, O_RDONLY | O_CLOEXEC)
                }
            }
            guard descriptor >= 0 else {
                throw ContactsError(.io, "cannot open a record file (error \(errno))", path: folderPath)
            }
            defer { close(descriptor) }
            while true {
                let count = read(descriptor, buffer, 1 << 16)
                if count > 0 {
                    pass.bytes += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    throw ContactsError(.io, "cannot read a record file (error \(errno))", path: folderPath)
                }
            }
            pass.files += 1
        }
        return pass
    }
}
