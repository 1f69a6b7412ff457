import FoundationEssentials
import Testing
@testable import PlainContacts

@Suite("fnv1a64")
struct ChangeFingerprintTests {
    /// Published FNV-1a 64-bit digests, xor-ed with the byte count.
    static let vectors: [(text: String, fingerprint: UInt64)] = [
        ("", 0xcbf2_9ce4_8422_2325),
        ("a", 0xaf63_dc4c_8601_ec8c ^ 1),
        ("foobar", 0x8594_4171_f739_67e8 ^ 6),
    ]

    @Test(arguments: vectors)
    func isFNV1aOfTheBytesXoredWithTheirCount(vector: (text: String, fingerprint: UInt64)) {
        #expect(fnv1a64(Data(vector.text.utf8)) == vector.fingerprint)
    }

    @Test
    func differsWhenOneByteDiffers() {
        #expect(fnv1a64(Data("{\"id\": 1}\n".utf8)) != fnv1a64(Data("{\"id\": 2}\n".utf8)))
    }
}
