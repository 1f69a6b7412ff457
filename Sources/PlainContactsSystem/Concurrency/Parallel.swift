import Dispatch
import Glibc

/// Independent pieces of work run on all the machine's cores, such as the `stat` of every
/// file in a large folder, or the reading of many small files.
package enum Parallel {
    /// The number of cores online.
    static var cores: Int { Swift.max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// `transform(position)` for every position below `count`, in order. The positions are cut
    /// into one contiguous range per core, and no range is shorter than `minimumChunk` (small
    /// jobs are not worth a thread).
    package static func map<T: Sendable>(
        _ count: Int, minimumChunk: Int = 1, _ transform: @Sendable (Int) -> T
    ) -> [T] {
        let chunks = Swift.min(cores, Swift.max(1, count / Swift.max(1, minimumChunk)))
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let start = buffer.baseAddress else { return }
            let slots = Slots(start: start)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                for position in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) {
                    (slots.start + position).initialize(to: transform(position))
                }
            }
            initialized = count
        }
    }

    /// `transform(range)` for contiguous ranges that cover `0..<count` in order, one per core,
    /// none shorter than `minimumChunk`: for work that sets something up once per core.
    package static func mapChunks<T: Sendable>(
        _ count: Int, minimumChunk: Int = 1, _ transform: @Sendable (Range<Int>) -> T
    ) -> [T] {
        let chunks = Swift.min(cores, Swift.max(1, count / Swift.max(1, minimumChunk)))
        return map(chunks) { chunk in transform((count * chunk / chunks)..<(count * (chunk + 1) / chunks)) }
    }

    /// Two results computed at once.
    package static func both<A: Sendable, B: Sendable>(
        _ first: @Sendable () -> A, _ second: @Sendable () -> B
    ) -> (A, B) {
        let results = map(2) { task -> Either<A, B> in task == 0 ? .first(first()) : .second(second()) }
        guard case .first(let a) = results[0], case .second(let b) = results[1] else { return (first(), second()) }
        return (a, b)
    }

    private enum Either<A: Sendable, B: Sendable>: Sendable {
        case first(A)
        case second(B)
    }

    /// The result buffer of ``map(_:minimumChunk:_:)``; each chunk initializes only its own
    /// positions.
    private struct Slots<T>: @unchecked Sendable {
        let start: UnsafeMutablePointer<T>
    }
}
