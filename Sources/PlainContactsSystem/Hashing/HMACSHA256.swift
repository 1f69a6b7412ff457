/// HMAC with SHA-256 (RFC 2104, test vectors in RFC 4231): a keyed hash that proves a message
/// was made by someone holding the key.
///
/// ```swift
/// let tag = HMACSHA256.authenticationCode(key: Array("key".utf8), message: Array("message".utf8))
/// tag.count  // 32
/// ```
package enum HMACSHA256 {
    /// The length of SHA-256's input block in bytes, to which HMAC pads its key (RFC 2104's B).
    static let blockCount = 64
    /// The byte XORed into the key for the inner hash (RFC 2104's ipad).
    static let innerPad: UInt8 = 0x36
    /// The byte XORed into the key for the outer hash (RFC 2104's opad).
    static let outerPad: UInt8 = 0x5c

    /// Returns the 32-byte HMAC-SHA256 of `message` under `key`:
    /// `SHA256((K ^ opad) || SHA256((K ^ ipad) || message))`, where K is the key padded with
    /// zeros to 64 bytes, or its SHA-256 digest padded so when the key is longer than that.
    ///
    /// ```swift
    /// SHA256.hexString(HMACSHA256.authenticationCode(key: Array("Jefe".utf8),
    ///                                                message: Array("what do ya want for nothing?".utf8)))
    /// // "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    /// ```
    package static func authenticationCode(key: [UInt8], message: some Sequence<UInt8>) -> [UInt8] {
        let block = paddedKey(key)
        var inner = block.map { $0 ^ innerPad }
        inner.append(contentsOf: message)
        var outer = block.map { $0 ^ outerPad }
        outer.append(contentsOf: SHA256.hash(inner))
        return SHA256.hash(outer)
    }

    /// Returns the key as one 64-byte block: hashed first when longer than a block, then
    /// padded with zeros (RFC 2104, section 2).
    ///
    /// ```swift
    /// HMACSHA256.paddedKey([1, 2]).count  // 64
    /// ```
    static func paddedKey(_ key: [UInt8]) -> [UInt8] {
        var block = key.count > blockCount ? SHA256.hash(key) : key
        block.append(contentsOf: repeatElement(0, count: blockCount - block.count))
        return block
    }
}
