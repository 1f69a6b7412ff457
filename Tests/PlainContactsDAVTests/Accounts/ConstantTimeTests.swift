import Testing

@testable import PlainContacts
@testable import PlainContactsDAV

@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test func equalBytesAreEqual() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equals([], []))
    }

    @Test func anyDifferingByteMakesThemUnequal() {
        for position in 0..<32 {
            var other = [UInt8](repeating: 7, count: 32)
            other[position] ^= 0x01
            #expect(!ConstantTime.equals([UInt8](repeating: 7, count: 32), other))
        }
    }

    @Test func differentLengthsAreUnequalEvenWhenOneIsPrefix() {
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equals([1, 2], [1, 2, 0]))
        #expect(!ConstantTime.equals([], [0]))
    }
}
