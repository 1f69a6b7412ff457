import Testing
@testable import PlainContactsSystem

@Suite struct ParallelTests {
    @Test(arguments: [0, 1, 7, 10_000])
    func mapKeepsEveryPositionInOrder(count: Int) {
        #expect(Parallel.map(count, minimumChunk: 100) { $0 * 3 } == (0..<count).map { $0 * 3 })
    }

    @Test(arguments: [0, 1, 7, 10_000])
    func chunksCoverEveryPositionOnceInOrder(count: Int) {
        let chunks = Parallel.mapChunks(count, minimumChunk: 100) { $0 }
        #expect(chunks.flatMap { Array($0) } == Array(0..<count))
        #expect(chunks.allSatisfy { $0.count >= Swift.min(count, 100) })
    }

    @Test func bothReturnsEachResultInItsPlace() {
        let (text, number) = Parallel.both({ "first" }, { 2 })
        #expect(text == "first")
        #expect(number == 2)
    }
}
