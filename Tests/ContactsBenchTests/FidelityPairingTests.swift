import Testing

@testable import contacts_bench

@Suite("Fidelity pairing")
struct FidelityPairingTests {
    private func card(_ texts: String...) -> FidelityCard {
        FidelityCard(startLine: 1, lines: texts.map(FidelityLine.init))
    }

    @Test func pairsInOrderWhenEveryCardCameBack() {
        let cards = [card("FN:a"), card("FN:b")]
        let pairs = FidelityPairing.pairs(cards, [[FidelityLine("FN:x")], [FidelityLine("FN:y")]])
        #expect(pairs.map(\.card) == [0, 1])
        #expect(pairs.map(\.export) == [0, 1])
    }

    @Test func leavesOutTheCardsThatDidNotComeBack() {
        let cards = [card("FN:a", "TEL:1"), card("FN:b", "TEL:2"), card("FN:c", "TEL:3"), card("FN:d")]
        let pairs = FidelityPairing.pairs(cards, [[FidelityLine("FN:a")], [FidelityLine("FN:c"), FidelityLine("TEL:3")]])
        #expect(pairs.map(\.card) == [0, 2])
        #expect(pairs.map(\.export) == [0, 1])
    }

    @Test func prefersTheNextCardWhenItSharesMoreWithThePerson() {
        let cards = [card("TEL:1", "FN:a"), card("TEL:1", "FN:b", "EMAIL:b")]
        let pairs = FidelityPairing.pairs(cards, [[FidelityLine("TEL:1"), FidelityLine("FN:b"), FidelityLine("EMAIL:b")]])
        #expect(pairs.map(\.card) == [1])
    }
}
