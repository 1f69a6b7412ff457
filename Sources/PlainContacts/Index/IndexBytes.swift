import Glibc

/// Bytes of the index that summaries read in place: the base's summaries section mapped from
/// its file, or a copy of bytes read from the log or just encoded. Never written once made.
///
/// Mapping the base costs a few page faults where reading it into memory costs a copy and a
/// zeroed page for every 4 KB (3.6 MB at 10,000 people). The base is only ever replaced by a
/// rename, never written in place, so the mapped file keeps the bytes whose checksum was
/// checked; as for Git, which maps its own index, a program that truncated the file in place
/// while it is mapped would make reading it fail with `SIGBUS`.
///
/// ```swift
/// let bytes = IndexBytes(copying: writer.bytes)
/// let summary = SummaryBytes(buffer: bytes.buffer, body: 4..<bytes.buffer.count)
/// ```
final class IndexBytes: @unchecked Sendable {
    // Unchecked: the memory is only read, from the end of `init` until `deinit` releases it.

    /// The bytes.
    let buffer: UnsafeRawBufferPointer
    /// The memory to give back: a whole mapping to unmap, or a copy to deallocate.
    private let mapping: UnsafeMutableRawBufferPointer?
    private let copy: UnsafeMutableRawBufferPointer?

    /// A copy of `bytes`.
    init(copying bytes: some Collection<UInt8>) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        memory.copyBytes(from: bytes)
        buffer = UnsafeRawBufferPointer(memory)
        copy = memory
        mapping = nil
    }

    /// The bytes at `section` of an open file of `fileSize` bytes, mapped read-only, or `nil`
    /// when the file cannot be mapped.
    init?(mapping descriptor: Int32, fileSize: Int, section: Range<Int>) {
        guard fileSize > 0, section.lowerBound >= 0, section.upperBound <= fileSize,
            let address = mmap(nil, fileSize, PROT_READ, MAP_PRIVATE, descriptor, 0),
            address != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        let whole = UnsafeMutableRawBufferPointer(start: address, count: fileSize)
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(whole)[section])
        mapping = whole
        copy = nil
    }

    deinit {
        if let mapping { munmap(mapping.baseAddress, mapping.count) }
        copy?.deallocate()
    }
}
