import FoundationEssentials
import PlainContactsSystem

/// Appends the index's binary fields: little-endian integers and length-prefixed UTF-8.
struct IndexWriter {
    private(set) var bytes: [UInt8] = []

    mutating func int64(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func uint32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func int32(_ value: Int32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// A string, or `nil`, as a 32-bit length (0xFFFF_FFFF for `nil`) and its UTF-8 bytes.
    mutating func string(_ value: String?) {
        guard let value else {
            uint32(.max)
            return
        }
        var text = value
        text.withUTF8 { utf8 in
            uint32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func strings(_ values: [String]) {
        uint32(UInt32(values.count))
        for value in values { string(value) }
    }

    mutating func signature(_ signature: FileSignature) {
        int64(Int64(bitPattern: signature.inode))
        int64(signature.size)
        int64(signature.modified)
        int64(signature.changed)
    }

    /// A listing as its folder's signature and time; `nil` as zeros.
    mutating func listing(_ listing: FolderListing?) {
        signature(listing?.signature ?? FileSignature(inode: 0, size: 0, modified: 0, changed: 0))
        int64(listing?.listedAt ?? 0)
    }

    mutating func append(_ other: some Collection<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Overwrites four bytes already written, for an offset known only later.
    static func store(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }
}

/// Reads what ``IndexWriter`` wrote; every read checks the bounds and throws on a short or
/// damaged file, which the index then discards.
struct IndexReader {
    struct Damaged: Error {}

    let bytes: [UInt8]
    var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset >= bytes.count }

    private mutating func take(_ count: Int) throws -> Int {
        guard count >= 0, offset + count <= bytes.count else { throw Damaged() }
        defer { offset += count }
        return offset
    }

    mutating func int64() throws -> Int64 {
        let start = try take(8)
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt64.self) }
        return Int64(bitPattern: UInt64(littleEndian: value))
    }

    mutating func uint32() throws -> UInt32 {
        let start = try take(4)
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt32.self) }
        return UInt32(littleEndian: value)
    }

    mutating func int32() throws -> Int32 {
        Int32(bitPattern: try uint32())
    }

    mutating func byte() throws -> UInt8 {
        bytes[try take(1)]
    }

    mutating func string() throws -> String? {
        let length = try uint32()
        if length == .max { return nil }
        let start = try take(Int(length))
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<(start + Int(length))]), as: UTF8.self)
        }
    }

    mutating func requiredString() throws -> String {
        guard let value = try string() else { throw Damaged() }
        return value
    }

    mutating func strings() throws -> [String] {
        let count = try uint32()
        guard count < 1_000_000 else { throw Damaged() }
        var values: [String] = []
        values.reserveCapacity(Int(count))
        for _ in 0..<count { values.append(try requiredString()) }
        return values
    }

    mutating func signature() throws -> FileSignature {
        FileSignature(
            inode: UInt64(bitPattern: try int64()), size: try int64(), modified: try int64(), changed: try int64())
    }

    /// What ``IndexWriter/listing(_:)`` wrote: `nil` for zeros.
    mutating func listing() throws -> FolderListing? {
        let signature = try signature()
        let listedAt = try int64()
        return listedAt == 0 ? nil : FolderListing(signature: signature, listedAt: listedAt)
    }

    mutating func skip(_ count: Int) throws {
        _ = try take(count)
    }
}
