/// A small seeded random number generator (SplitMix64): fast and the same on every machine, so
/// that a seed replays a fuzz case, a crash test's choices or a generated test person.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let pause = Int.random(in: 0..<10, using: &random)
/// ```
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
