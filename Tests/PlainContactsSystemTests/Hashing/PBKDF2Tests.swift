import DAVTestSupport
import TestTags
import Testing

@testable import PlainContactsSystem

@Suite("PBKDF2-HMAC-SHA256")
struct PBKDF2Tests {
    /// RFC 7914, section 11: PBKDF2-HMAC-SHA256 (P="passwd", S="salt", c=1, dkLen=64).
    @Test func oneIterationMatchesRFC7914() {
        let key = PBKDF2.deriveKey(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64)
        #expect(
            key == bytes(hex: """
                55 ac 04 6e 56 e3 08 9f ec 16 91 c2 25 44 b6 05 f9 41 85 21 6d de 04 65 e6 8b 9d 57 c2 0d ac bc
                49 ca 9c cc f1 79 b6 45 99 16 64 b3 9d 77 ef 31 7c 71 b8 45 b1 e3 0b d5 09 11 20 41 d3 a1 97 83
                """))
    }

    /// Some ten seconds in a debug build (80,000 iterations, two blocks).
    @Test(.tags(.slow), .slowTestsEnabled) func eightyThousandIterationsMatchRFC7914() {
        let key = PBKDF2.deriveKey(
            password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, length: 64)
        #expect(
            key == bytes(hex: """
                4d dc d8 f6 0b 98 be 21 83 0c ee 5e f2 27 01 f9 64 1a 44 18 d0 4c 04 14 ae ff 08 87 6b 34 ab 56
                a1 d4 25 a1 22 58 33 54 9a db 84 1b 51 c9 b3 17 6a 27 2b de bb a1 d0 78 47 8f 62 b3 97 f3 3c 8d
                """))
    }

    @Test(
        "derived keys match the published password/salt vectors",
        arguments: [
            (1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
            (2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
            (4096, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"),
        ])
    func derivedKeyMatchesPublishedVector(iterations: Int, expected: String) {
        let key = PBKDF2.deriveKey(
            password: Array("password".utf8), salt: Array("salt".utf8), iterations: iterations, length: 32)
        #expect(SHA256.hexString(key) == expected)
    }

    /// Password and salt lengths around SHA-256's block boundaries (55/56 bytes for the
    /// salt with its 4-byte index, 64/65 for the key), against RFC 8018 written plainly.
    @Test(
        "the fast derivation equals the textbook definition",
        arguments: [0, 1, 51, 52, 60, 64, 65, 130], [1, 3])
    func derivationEqualsTextbookDefinition(length: Int, iterations: Int) {
        let password = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let salt = (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ 3) }
        #expect(
            PBKDF2.deriveKey(password: password, salt: salt, iterations: iterations, length: 40)
                == Self.textbookDerivation(password: password, salt: salt, iterations: iterations, length: 40))
    }

    @Test func shortLengthIsPrefixOfLongerOne() {
        let password = Array("pw".utf8)
        let salt = Array("salt".utf8)
        let long = PBKDF2.deriveKey(password: password, salt: salt, iterations: 5, length: 70)
        #expect(PBKDF2.deriveKey(password: password, salt: salt, iterations: 5, length: 7) == Array(long.prefix(7)))
        #expect(long.count == 70)
    }

    /// RFC 8018, section 5.2, with one HMAC call per step and nothing precomputed.
    static func textbookDerivation(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        var output: [UInt8] = []
        var blockIndex: UInt32 = 1
        while output.count < length {
            let index = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: blockIndex >> $0) }
            var u = HMACSHA256.authenticationCode(key: password, message: salt + index)
            var block = u
            for _ in 1..<iterations {
                u = HMACSHA256.authenticationCode(key: password, message: u)
                block = zip(block, u).map { $0 ^ $1 }
            }
            output += block
            blockIndex += 1
        }
        return Array(output.prefix(length))
    }
}
