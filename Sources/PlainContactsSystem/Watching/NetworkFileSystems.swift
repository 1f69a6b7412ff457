import Glibc

/// The file systems on which inotify cannot vouch for a folder: network and cluster file
/// systems, where another machine's writes reach the files without any event on this one.
///
/// Told apart by `statfs`'s `f_type`, as the kernel's `statfs(2)` manual lists them.
///
/// ```swift
/// if NetworkFileSystems.holds("/mnt/nas/contacts") == true { /* look at every file */ }
/// ```
package enum NetworkFileSystems {
    /// The magic numbers of NFS, SMB and CIFS (both dialects), AFS, Coda, NCP, Ceph, 9P,
    /// Lustre, GFS2, OCFS2 and FUSE (which sshfs and most remote mounts use).
    static let magics: Set<Int> = [
        0x6969, 0x517B, 0xFF53_4D42, 0xFE53_4D42, 0x5346_414F, 0x7375_7245, 0x564C, 0x00C3_6400, 0x0102_1997,
        0x0BD0_0BD0, 0x0116_1970, 0x7461_636F, 0x6573_5546,
    ]

    /// Whether `path` lies on such a file system; `nil` when `statfs` fails.
    package static func holds(_ path: String) -> Bool? {
        guard let statfs = statfsFunction else { return nil }
        // `struct statfs` begins with `f_type` (a `long`) on every Linux architecture; the
        // buffer is larger than the whole structure.
        var buffer = [Int](repeating: 0, count: 64)
        let status = buffer.withUnsafeMutableBytes { statfs(path, $0.baseAddress) }
        guard status == 0, let type = buffer.first else { return nil }
        return magics.contains(Int(UInt32(truncatingIfNeeded: type)))
    }

    /// The C library's `statfs`, which Swift's Glibc module does not import (`sys/vfs.h`).
    private static let statfsFunction: (@convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "statfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?) -> Int32).self)
    }()
}
