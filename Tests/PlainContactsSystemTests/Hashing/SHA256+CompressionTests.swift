import Testing

@testable import PlainContactsSystem

@Suite("SHA-256 compression")
struct SHA256CompressionTests {
    /// Compressing one block from the initial state by hand gives FIPS 180-4's "abc" digest.
    @Test func oneBlockFromInitialStateGivesTheABCDigest() {
        var block = [UInt8](repeating: 0, count: 64)
        block[0...2] = [0x61, 0x62, 0x63]
        block[3] = 0x80
        block[63] = 24
        var state = SHA256.IntermediateHash.initial
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SHA256.IntermediateHash.scheduleCount) { schedule in
            for word in 0..<16 {
                schedule[word] = block[word * 4..<word * 4 + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            state.compress(schedule: schedule)
        }
        #expect(SHA256.hexString(state.bytes) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("finishing from the initial state gives SHA256.hash", arguments: [0, 1, 55, 56, 63, 64, 65, 119, 120, 200])
    func finishingFromInitialStateMatchesHash(length: Int) {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        let digest = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SHA256.IntermediateHash.scheduleCount) {
            SHA256.IntermediateHash.initial.finishing(message, afterPrefixCount: 0, schedule: $0).bytes
        }
        #expect(digest == SHA256.hash(message))
    }
}
