/// The SHA-256 hash function of FIPS 180-4, over bytes.
///
/// Used where the library needs a stable digest that is the same on every machine and in
/// every version, such as ``NameHash``.
///
/// ```swift
/// SHA256.hexDigest(Array("abc".utf8))
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
enum SHA256 {
    /// The length of a digest in bytes.
    static let digestCount = 32

    /// Returns the 32-byte SHA-256 digest of `bytes`.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
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
    static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        hexString(hash(bytes))
    }

    /// Returns `bytes` as lowercase hexadecimal digits, two per byte.
    static func hexString(_ bytes: some Collection<UInt8>) -> String {
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

        private static let roundConstants: [UInt32] = [
            0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
            0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
            0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
            0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
            0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
            0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
            0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
            0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
        ]

        private var words: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
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
            var digest: [UInt8] = []
            digest.reserveCapacity(SHA256.digestCount)
            for word in words {
                digest.append(UInt8(truncatingIfNeeded: word >> 24))
                digest.append(UInt8(truncatingIfNeeded: word >> 16))
                digest.append(UInt8(truncatingIfNeeded: word >> 8))
                digest.append(UInt8(truncatingIfNeeded: word))
            }
            return digest
        }

        /// Processes the 64-byte block of `buffer` that starts at `start`.
        private mutating func processBlock(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) {
            for t in 0..<16 {
                let offset = start + t * 4
                schedule[t] =
                    UInt32(buffer[offset]) << 24 | UInt32(buffer[offset + 1]) << 16
                    | UInt32(buffer[offset + 2]) << 8 | UInt32(buffer[offset + 3])
            }
            for t in 16..<64 {
                let w15 = schedule[t - 15]
                let w2 = schedule[t - 2]
                let sigma0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >> 3)
                let sigma1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >> 10)
                schedule[t] = schedule[t - 16] &+ sigma0 &+ schedule[t - 7] &+ sigma1
            }
            var a = words[0]
            var b = words[1]
            var c = words[2]
            var d = words[3]
            var e = words[4]
            var f = words[5]
            var g = words[6]
            var h = words[7]
            for t in 0..<64 {
                let bigSigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
                let choice = (e & f) ^ (~e & g)
                let temp1 = h &+ bigSigma1 &+ choice &+ Self.roundConstants[t] &+ schedule[t]
                let bigSigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = bigSigma0 &+ majority
                h = g
                g = f
                f = e
                e = d &+ temp1
                d = c
                c = b
                b = a
                a = temp1 &+ temp2
            }
            words[0] &+= a
            words[1] &+= b
            words[2] &+= c
            words[3] &+= d
            words[4] &+= e
            words[5] &+= f
            words[6] &+= g
            words[7] &+= h
        }

        private func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
            (value >> count) | (value << (32 - count))
        }
    }
}
