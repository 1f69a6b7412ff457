import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A response body as it arrives, in memory that grows in place and never past a bound: a
/// body of hundreds of megabytes is not copied as it grows, nor held twice.
///
/// `Data` and `Array` grow by allocating twice the room and copying into it, so that a body
/// just past 128 MiB briefly holds 128 MiB and a 512 MiB buffer filling up with its copy; this
/// buffer grows with `realloc`, which moves a large block's pages rather than its bytes, and
/// never reserves more than its bound. The body becomes a `Data` without a copy.
///
/// ```swift
/// let body = HTTPResponseBody(bound: 256 << 20)
/// body.append(piece)      // false once the bound would be passed
/// let data = body.take()  // the bytes, now owned by the Data
/// ```
final class HTTPResponseBody {
    /// The first room reserved: most answers fit in it.
    static let initialCapacity = 64 * 1024

    /// The most bytes the body may hold.
    let bound: Int
    private var bytes: UnsafeMutableRawPointer?
    private(set) var count = 0
    private var capacity = 0

    /// An empty body that holds at most `bound` bytes.
    init(bound: Int) {
        self.bound = bound
    }

    deinit {
        free(bytes)
    }

    /// Appends a piece; returns `false`, appending nothing, when the body would pass its bound
    /// or no memory could be had for it.
    func append(_ piece: UnsafeRawBufferPointer) -> Bool {
        guard piece.count <= bound - count else { return false }
        guard let source = piece.baseAddress, piece.count > 0 else { return true }
        if count + piece.count > capacity {
            let wanted = min(bound, max(count + piece.count, capacity * 2, Self.initialCapacity))
            guard let grown = realloc(bytes, wanted) else { return false }
            bytes = grown
            capacity = wanted
        }
        guard let bytes else { return false }
        (bytes + count).copyMemory(from: source, byteCount: piece.count)
        count += piece.count
        return true
    }

    /// The body's bytes as `Data`, which takes over the memory; the body is empty after.
    func take() -> Data {
        guard let taken = bytes, count > 0 else { return Data() }
        let data = Data(bytesNoCopy: taken, count: count, deallocator: .free)
        bytes = nil
        count = 0
        capacity = 0
        return data
    }
}
