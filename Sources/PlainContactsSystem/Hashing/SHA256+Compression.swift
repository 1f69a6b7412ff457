extension SHA256 {
    /// SHA-256's intermediate hash value H(i) of FIPS 180-4, with the compression function that
    /// advances it by one 512-bit block, working on words in place without allocating.
    ///
    /// ``SHA256/hash(_:)`` compresses its blocks with it; a password key derivation's inner
    /// loop uses it directly, resuming the same two precomputed states (the HMAC key blocks)
    /// hundreds of thousands of times, which cannot afford `SHA256.hash`'s buffering and
    /// per-call allocations.
    ///
    /// ```swift
    /// var state = SHA256.IntermediateHash.initial
    /// withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
    ///     // schedule[0..<16] holds one padded block as big-endian words
    ///     state.compress(schedule: schedule)
    /// }
    /// state.bytes  // the digest, when that block was the last one
    /// ```
    struct IntermediateHash: Sendable, Equatable {
        /// The number of 32-bit words a compression needs in its message schedule.
        static let scheduleCount = 64
        /// The number of bytes in one block.
        static let blockCount = 64

        /// Word 0 of the state (H0 in FIPS 180-4).
        var h0: UInt32
        /// Word 1 of the state (H1 in FIPS 180-4).
        var h1: UInt32
        /// Word 2 of the state (H2 in FIPS 180-4).
        var h2: UInt32
        /// Word 3 of the state (H3 in FIPS 180-4).
        var h3: UInt32
        /// Word 4 of the state (H4 in FIPS 180-4).
        var h4: UInt32
        /// Word 5 of the state (H5 in FIPS 180-4).
        var h5: UInt32
        /// Word 6 of the state (H6 in FIPS 180-4).
        var h6: UInt32
        /// Word 7 of the state (H7 in FIPS 180-4).
        var h7: UInt32

        /// The initial hash value H(0) of FIPS 180-4, section 5.3.3.
        static let initial = IntermediateHash(
            h0: 0x6a09_e667, h1: 0xbb67_ae85, h2: 0x3c6e_f372, h3: 0xa54f_f53a,
            h4: 0x510e_527f, h5: 0x9b05_688c, h6: 0x1f83_d9ab, h7: 0x5be0_cd19)

        /// The state as 32 big-endian bytes: the digest, once the last block is compressed.
        var bytes: [UInt8] {
            var result: [UInt8] = []
            result.reserveCapacity(SHA256.digestCount)
            for word in [h0, h1, h2, h3, h4, h5, h6, h7] {
                result.append(UInt8(truncatingIfNeeded: word >> 24))
                result.append(UInt8(truncatingIfNeeded: word >> 16))
                result.append(UInt8(truncatingIfNeeded: word >> 8))
                result.append(UInt8(truncatingIfNeeded: word))
            }
            return result
        }

        /// Writes the eight words into `schedule[0..<8]`, where the next block's first half
        /// goes when this state is a digest being hashed again (HMAC's outer hash, key derivation).
        func store(into schedule: UnsafeMutableBufferPointer<UInt32>) {
            schedule[0] = h0
            schedule[1] = h1
            schedule[2] = h2
            schedule[3] = h3
            schedule[4] = h4
            schedule[5] = h5
            schedule[6] = h6
            schedule[7] = h7
        }

        /// XORs `other` into this state word by word (a key derivation's running `T = U1 ^ U2 ^ …`).
        mutating func formXOR(_ other: IntermediateHash) {
            h0 ^= other.h0
            h1 ^= other.h1
            h2 ^= other.h2
            h3 ^= other.h3
            h4 ^= other.h4
            h5 ^= other.h5
            h6 ^= other.h6
            h7 ^= other.h7
        }

        /// Processes one block: `schedule[0..<16]` must hold its sixteen big-endian words and is
        /// left as it was; `schedule[16..<64]` is scratch space and is overwritten.
        mutating func compress(schedule: UnsafeMutableBufferPointer<UInt32>) {
            precondition(schedule.count >= Self.scheduleCount, "a SHA-256 message schedule has 64 words")
            for t in 16..<64 {
                let w15 = schedule[t - 15]
                let w2 = schedule[t - 2]
                let sigma0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                let sigma1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                schedule[t] = schedule[t - 16] &+ sigma0 &+ schedule[t - 7] &+ sigma1
            }
            var a = h0
            var b = h1
            var c = h2
            var d = h3
            var e = h4
            var f = h5
            var g = h6
            var h = h7
            Self.roundConstants.withUnsafeBufferPointer { k in
                // Eight rounds per pass, each naming the registers in turn, so that no value
                // is moved between variables (FIPS 180-4's h = g, g = f, … become renamings).
                for t in stride(from: 0, to: 64, by: 8) {
                    Self.round(a, b, c, &d, e, f, g, &h, k[t] &+ schedule[t])
                    Self.round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ schedule[t + 1])
                    Self.round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ schedule[t + 2])
                    Self.round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ schedule[t + 3])
                    Self.round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ schedule[t + 4])
                    Self.round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ schedule[t + 5])
                    Self.round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ schedule[t + 6])
                    Self.round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ schedule[t + 7])
                }
            }
            h0 &+= a
            h1 &+= b
            h2 &+= c
            h3 &+= d
            h4 &+= e
            h5 &+= f
            h6 &+= g
            h7 &+= h
        }

        /// One round of FIPS 180-4's compression, with `constantPlusWord` = K(t) + W(t): adds
        /// T1 to `d` (the new e) and sets `h` to T1 + T2 (the new a).
        @inline(__always)
        private static func round(
            _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
            _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ constantPlusWord: UInt32
        ) {
            let bigSigma1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = g ^ (e & (f ^ g))
            let temp1 = h &+ bigSigma1 &+ choice &+ constantPlusWord
            let bigSigma0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) | (c & (a | b))
            d &+= temp1
            h = temp1 &+ bigSigma0 &+ majority
        }

        /// Hashes `message` as if `prefixCount` bytes (whole blocks) had already been processed
        /// into this state, padding and finishing the hash; the result is the digest.
        ///
        /// Used for the few hashes per key-derivation block whose message is not a single digest
        /// (the salt with the block index).
        func finishing(
            _ message: [UInt8], afterPrefixCount prefixCount: Int, schedule: UnsafeMutableBufferPointer<UInt32>
        ) -> IntermediateHash {
            precondition(prefixCount % Self.blockCount == 0, "the prefix must be whole blocks")
            var padded = message
            padded.append(0x80)
            while padded.count % Self.blockCount != Self.blockCount - 8 {
                padded.append(0)
            }
            let bitCount = UInt64(prefixCount + message.count) &* 8
            for shift in stride(from: 56, through: 0, by: -8) {
                padded.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
            }
            var state = self
            for blockStart in stride(from: 0, to: padded.count, by: Self.blockCount) {
                for word in 0..<16 {
                    let offset = blockStart + word * 4
                    schedule[word] =
                        UInt32(padded[offset]) << 24 | UInt32(padded[offset + 1]) << 16
                        | UInt32(padded[offset + 2]) << 8 | UInt32(padded[offset + 3])
                }
                state.compress(schedule: schedule)
            }
            return state
        }

        /// The 64 round constants K of FIPS 180-4, section 4.2.2.
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
    }
}

extension UInt32 {
    /// The value rotated right by `count` bits (FIPS 180-4's ROTR).
    ///
    /// ```swift
    /// UInt32(1).rotatedRight(1)  // 0x8000_0000
    /// ```
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
