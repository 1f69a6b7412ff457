/// PBKDF2 with HMAC-SHA256 (RFC 8018, section 5.2): derives a key from a password by
/// iterating HMAC, so that every guess of the password costs an attacker the same work.
///
/// The two HMAC key blocks are compressed once per derivation; each iteration then costs
/// exactly two SHA-256 compressions and no allocation.
///
/// ```swift
/// let key = PBKDF2.deriveKey(password: Array("passwd".utf8), salt: Array("salt".utf8),
///                            iterations: 1, length: 64)
/// key.count  // 64
/// ```
package enum PBKDF2 {
    /// Returns `length` bytes derived from `password` and `salt` with `iterations` rounds of
    /// PBKDF2-HMAC-SHA256.
    ///
    /// `iterations` and `length` must be at least 1 (a programming error otherwise). The time
    /// grows linearly with `iterations` and with the number of 32-byte blocks in `length`.
    ///
    /// ```swift
    /// let key = PBKDF2.deriveKey(password: Array("password".utf8), salt: Array("salt".utf8),
    ///                            iterations: 1, length: 32)
    /// SHA256.hexString(key)
    /// // "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"
    /// ```
    package static func deriveKey(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        precondition(iterations >= 1, "PBKDF2 needs at least one iteration")
        precondition(length >= 1, "PBKDF2 derives at least one byte")
        let key = HMACSHA256.paddedKey(password)
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SHA256.IntermediateHash.scheduleCount) {
            schedule in
            let keyStates = KeyStates(paddedKey: key, schedule: schedule)
            var output: [UInt8] = []
            output.reserveCapacity(length + SHA256.digestCount)
            var blockIndex: UInt32 = 1
            while output.count < length {
                let block = deriveBlock(
                    blockIndex, salt: salt, iterations: iterations, keyStates: keyStates, schedule: schedule)
                output.append(contentsOf: block.bytes)
                blockIndex += 1
            }
            return Array(output.prefix(length))
        }
    }

    /// Returns the block `T_i = U_1 ^ U_2 ^ … ^ U_c` of RFC 8018, where
    /// `U_1 = HMAC(P, S || INT(i))` and `U_j = HMAC(P, U_{j-1})`.
    private static func deriveBlock(
        _ blockIndex: UInt32, salt: [UInt8], iterations: Int, keyStates: KeyStates,
        schedule: UnsafeMutableBufferPointer<UInt32>
    ) -> SHA256.IntermediateHash {
        var message = salt
        message.append(UInt8(truncatingIfNeeded: blockIndex >> 24))
        message.append(UInt8(truncatingIfNeeded: blockIndex >> 16))
        message.append(UInt8(truncatingIfNeeded: blockIndex >> 8))
        message.append(UInt8(truncatingIfNeeded: blockIndex))
        let innerDigest = keyStates.inner.finishing(
            message, afterPrefixCount: SHA256.IntermediateHash.blockCount, schedule: schedule)
        var u = keyStates.outer.finishing(
            innerDigest.bytes, afterPrefixCount: SHA256.IntermediateHash.blockCount, schedule: schedule)
        var result = u
        for _ in 1..<iterations {
            u = keyStates.authenticate(digest: u, schedule: schedule)
            result.formXOR(u)
        }
        return result
    }

    /// The SHA-256 states after HMAC's first block, `K ^ ipad` and `K ^ opad`, computed once
    /// per derivation and resumed for every HMAC of it.
    private struct KeyStates {
        /// The padding words of a message that is one 32-byte digest after one 64-byte block:
        /// the `0x80` marker, zeros, and the bit length (64 + 32) × 8 = 768.
        private static let digestPaddingMarker: UInt32 = 0x8000_0000
        private static let digestMessageBitCount: UInt32 = 768

        /// The state after compressing `K ^ ipad`.
        let inner: SHA256.IntermediateHash
        /// The state after compressing `K ^ opad`.
        let outer: SHA256.IntermediateHash

        /// Compresses the two padded key blocks of the 64-byte `paddedKey`.
        init(paddedKey: [UInt8], schedule: UnsafeMutableBufferPointer<UInt32>) {
            inner = Self.state(afterBlock: paddedKey.map { $0 ^ HMACSHA256.innerPad }, schedule: schedule)
            outer = Self.state(afterBlock: paddedKey.map { $0 ^ HMACSHA256.outerPad }, schedule: schedule)
        }

        /// Returns `HMAC(K, digest)` for a 32-byte `digest`: two compressions, no allocation.
        func authenticate(
            digest: SHA256.IntermediateHash, schedule: UnsafeMutableBufferPointer<UInt32>
        ) -> SHA256.IntermediateHash {
            Self.storeDigestPadding(into: schedule)
            digest.store(into: schedule)
            var innerState = inner
            innerState.compress(schedule: schedule)
            Self.storeDigestPadding(into: schedule)
            innerState.store(into: schedule)
            var outerState = outer
            outerState.compress(schedule: schedule)
            return outerState
        }

        /// Writes the words 8 to 15 of a block holding one digest after one block of prefix.
        private static func storeDigestPadding(into schedule: UnsafeMutableBufferPointer<UInt32>) {
            schedule[8] = digestPaddingMarker
            for word in 9..<15 {
                schedule[word] = 0
            }
            schedule[15] = digestMessageBitCount
        }

        /// Returns the initial state advanced by the 64-byte `block`.
        private static func state(
            afterBlock block: [UInt8], schedule: UnsafeMutableBufferPointer<UInt32>
        ) -> SHA256.IntermediateHash {
            for word in 0..<16 {
                let offset = word * 4
                schedule[word] =
                    UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16
                    | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
            }
            var state = SHA256.IntermediateHash.initial
            state.compress(schedule: schedule)
            return state
        }
    }
}
