import Testing
@testable import PlainContactsSystem

@Suite struct ParallelTests {
    @Test(arguments: [0, 1, 7, 10_000])
    func mapKeepsEveryPositionInOrder(count: Int) {
        #expect(Parallel.map(count, minimumChunk: 100) { $0 * 3 } == (0..<count).map { $0 * 3 })
    }

    @Test func bothReturnsEachResultInItsPlace() {
        let (text, number) = Parallel.both({ "first" }, { 2 })
        #expect(text == "first")
        #expect(number == 2)
    }
}
