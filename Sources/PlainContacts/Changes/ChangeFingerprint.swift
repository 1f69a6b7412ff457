import FoundationEssentials

/// A 64-bit FNV-1a digest of `data`, xor-ed with its byte count: the content fingerprint the
/// store watcher compares to tell whether a file's bytes changed.
///
/// `StoreWatcher.ignore(path:fingerprint:)` takes fingerprints made by this function; the value
/// equals `Fingerprint(data).value`.
///
/// ```swift
/// watcher.ignore(path: "people/katie-bell-7kq2mx.json", fingerprint: fnv1a64(bytes))
/// ```
func fnv1a64(_ data: Data) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    data.withUnsafeBytes { buffer in
        for byte in buffer {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
    }
    return hash ^ UInt64(data.count)
}
