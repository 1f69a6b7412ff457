/// The SHA-256 hash function of FIPS 180-4, over bytes.
///
/// Used where a stable digest is needed that is the same on every machine and in every
/// version, such as the hash in a file's name or a checksum over a file.
///
/// ```swift
/// SHA256.hexDigest(Array("abc".utf8))
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
package enum SHA256 {
    /// The length of a digest in bytes.
    static let digestCount = 32

    /// Returns the 32-byte SHA-256 digest of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var state = State()
        let handledContiguously: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            state.update(buffer)
        }
        if handledContiguously == nil {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(State.blockCount)
            for byte in bytes {
                chunk.append(byte)
                if chunk.count == State.blockCount {
                    chunk.withUnsafeBufferPointer { state.update($0) }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            chunk.withUnsafeBufferPointer { state.update($0) }
        }
        return state.finalize()
    }

    /// Returns the SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        hexString(hash(bytes))
    }

    /// Returns `bytes` as lowercase hexadecimal digits, two per byte.
    package static func hexString(_ bytes: some Collection<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension SHA256 {
    /// The running state of one hash computation.
    private struct State {
        static let blockCount = 64

        /// The intermediate hash value, advanced block by block.
        private var hash = IntermediateHash.initial
        /// Bytes received but not yet processed (fewer than one block).
        private var pending: [UInt8] = []
        /// The total message length so far, in bytes.
        private var byteCount: UInt64 = 0
        /// The message schedule, kept to avoid an allocation per block.
        private var schedule = [UInt32](repeating: 0, count: 64)

        init() {
            pending.reserveCapacity(Self.blockCount)
        }

        mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
            byteCount &+= UInt64(buffer.count)
            var index = buffer.startIndex
            if !pending.isEmpty {
                let take = min(Self.blockCount - pending.count, buffer.count)
                pending.append(contentsOf: buffer[index..<index + take])
                index += take
                if pending.count == Self.blockCount {
                    let block = pending
                    block.withUnsafeBufferPointer { processBlock($0, at: 0) }
                    pending.removeAll(keepingCapacity: true)
                }
            }
            while buffer.endIndex - index >= Self.blockCount {
                processBlock(buffer, at: index)
                index += Self.blockCount
            }
            if index < buffer.endIndex {
                pending.append(contentsOf: buffer[index..<buffer.endIndex])
            }
        }

        mutating func finalize() -> [UInt8] {
            let bitCount = byteCount &* 8
            var tail = pending
            tail.append(0x80)
            while tail.count % Self.blockCount != 56 {
                tail.append(0)
            }
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
            }
            tail.withUnsafeBufferPointer { buffer in
                var index = 0
                while index < buffer.count {
                    processBlock(buffer, at: index)
                    index += Self.blockCount
                }
            }
            return hash.bytes
        }

        /// Processes the 64-byte block of `buffer` that starts at `start`.
        private mutating func processBlock(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) {
            for t in 0..<16 {
                let offset = start + t * 4
                schedule[t] =
                    UInt32(buffer[offset]) << 24 | UInt32(buffer[offset + 1]) << 16
                    | UInt32(buffer[offset + 2]) << 8 | UInt32(buffer[offset + 3])
            }
            schedule.withUnsafeMutableBufferPointer { hash.compress(schedule: $0) }
        }
    }
}
