import Testing

@testable import PlainContactsSystem

@Suite("HMAC-SHA256")
struct HMACSHA256Tests {
    /// The HMAC-SHA-256 test cases of RFC 4231, section 4 (case 5 truncates its output).
    static let rfc4231Cases: [(number: Int, key: [UInt8], data: [UInt8], expected: String)] = [
        (1, [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (2, Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (3, [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (4, Array(1...25), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (6, [UInt8](repeating: 0xaa, count: 131),
         Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (7, [UInt8](repeating: 0xaa, count: 131),
         Array(("This is a test using a larger than block-size key and a larger than block-size data."
                + " The key needs to be hashed before being used by the HMAC algorithm.").utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("authentication codes match RFC 4231", arguments: rfc4231Cases.map(\.number))
    func authenticationCodeMatchesRFC4231(caseNumber: Int) throws {
        let testCase = try #require(Self.rfc4231Cases.first { $0.number == caseNumber })
        let code = HMACSHA256.authenticationCode(key: testCase.key, message: testCase.data)
        #expect(SHA256.hexString(code) == testCase.expected)
    }

    @Test func messageAsLazySequenceGivesSameCodeAsArray() {
        let key = Array("key".utf8)
        let message = Array(0..<200).map { UInt8($0) }
        #expect(
            HMACSHA256.authenticationCode(key: key, message: message.lazy.map { $0 })
                == HMACSHA256.authenticationCode(key: key, message: message))
    }
}
