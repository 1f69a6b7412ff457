import FoundationEssentials

/// A 64-bit FNV-1a digest of a file's bytes, to notice that a file changed since it was read.
package struct Fingerprint: Hashable, Sendable {
    package var value: UInt64

    package init(_ data: Data) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        value = hash ^ UInt64(data.count)
    }
}
