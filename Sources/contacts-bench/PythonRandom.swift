/// The random number generator of Python's `random` module (MT19937 seeded as `random.Random(n)`),
/// reproduced so that the Swift card generator writes the same cards as `gen_contacts.py`.
///
/// Only the calls the generator makes are provided: `random()`, `randint(a, b)`, `choice(seq)`
/// and `sample(population, k)` for small populations, each drawing exactly the numbers CPython
/// 3.x draws.
struct PythonRandom {
    private static let stateSize = 624
    private static let shift = 397
    private var state: [UInt32]
    private var index: Int

    /// A generator seeded like `random.Random(seed)` with a non-negative integer seed.
    init(seed: UInt64) {
        var key: [UInt32] = []
        var rest = seed
        repeat {
            key.append(UInt32(truncatingIfNeeded: rest))
            rest >>= 32
        } while rest != 0
        state = [UInt32](repeating: 0, count: Self.stateSize)
        index = Self.stateSize
        seedByArray(key)
    }

    /// `random.random()`: a double in [0, 1) from 53 random bits.
    mutating func random() -> Double {
        let a = Double(nextWord() >> 5)
        let b = Double(nextWord() >> 6)
        return (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `random.randint(low, high)`: an integer in `low...high`.
    mutating func randint(_ low: Int, _ high: Int) -> Int {
        low + below(high - low + 1)
    }

    /// `random.choice(items)`.
    mutating func choice<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// `random.sample(population, k)` for populations of at most 21 items (the pool algorithm).
    mutating func sample<T>(_ population: [T], _ count: Int) -> [T] {
        var pool = population
        var result: [T] = []
        let n = pool.count
        for i in 0..<min(count, n) {
            let j = below(n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
        }
        return result
    }

    /// `_randbelow_with_getrandbits(n)`: a uniform integer in `0..<n` for `n` up to 2³².
    private mutating func below(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let bits = Int.bitWidth - (n.leadingZeroBitCount)
        while true {
            let value = Int(nextWord() >> UInt32(32 - bits))
            if value < n { return value }
        }
    }

    private mutating func seedByInteger(_ seed: UInt32) {
        state[0] = seed
        for i in 1..<Self.stateSize {
            let previous = state[i - 1]
            state[i] = 1_812_433_253 &* (previous ^ (previous >> 30)) &+ UInt32(i)
        }
        index = Self.stateSize
    }

    private mutating func seedByArray(_ key: [UInt32]) {
        seedByInteger(19_650_218)
        var i = 1
        var j = 0
        for _ in 0..<max(Self.stateSize, key.count) {
            let previous = state[i - 1]
            state[i] = (state[i] ^ ((previous ^ (previous >> 30)) &* 1_664_525)) &+ key[j] &+ UInt32(j)
            i += 1
            j += 1
            if i >= Self.stateSize {
                state[0] = state[Self.stateSize - 1]
                i = 1
            }
            if j >= key.count { j = 0 }
        }
        for _ in 0..<(Self.stateSize - 1) {
            let previous = state[i - 1]
            state[i] = (state[i] ^ ((previous ^ (previous >> 30)) &* 1_566_083_941)) &- UInt32(i)
            i += 1
            if i >= Self.stateSize {
                state[0] = state[Self.stateSize - 1]
                i = 1
            }
        }
        state[0] = 0x8000_0000
    }

    private mutating func regenerate() {
        for k in 0..<Self.stateSize {
            let y = (state[k] & 0x8000_0000) | (state[(k + 1) % Self.stateSize] & 0x7fff_ffff)
            var next = state[(k + Self.shift) % Self.stateSize] ^ (y >> 1)
            if y & 1 != 0 { next ^= 0x9908_b0df }
            state[k] = next
        }
        index = 0
    }

    private mutating func nextWord() -> UInt32 {
        if index >= Self.stateSize { regenerate() }
        var y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9d2c_5680
        y ^= (y << 15) & 0xefc6_0000
        y ^= y >> 18
        return y
    }
}
