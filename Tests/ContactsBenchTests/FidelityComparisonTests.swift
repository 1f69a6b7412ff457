import Testing

@testable import contacts_bench

@Suite("Fidelity comparison")
struct FidelityComparisonTests {
    private func lines(_ texts: [String]) -> [FidelityLine] {
        texts.map(FidelityLine.init)
    }

    @Test func countsIdenticalThenEquivalentThenLostLines() {
        let comparison = FidelityComparison(
            original: lines(["FN:a", "TEL;CELL:1", "NOTE:x", "X-A:1"]),
            exported: lines(["FN:a", "TEL;TYPE=CELL:1", "NOTE:y"]))
        #expect(comparison.exact == 1)
        #expect(comparison.equivalent == 1)
        #expect(comparison.lost.map(\.text) == ["NOTE:x", "X-A:1"])
    }

    @Test func pairsEachExportedLineWithOneOriginalLineAtMost() {
        let comparison = FidelityComparison(original: lines(["TEL:1", "TEL:1", "tel:1"]), exported: lines(["TEL:1", "TEL:1"]))
        #expect(comparison.exact == 2)
        #expect(comparison.equivalent == 0)
        #expect(comparison.lost.map(\.text) == ["tel:1"])
    }

    @Test func keepsIdenticalPartnersFromBeingTakenByEquivalentLines() {
        let comparison = FidelityComparison(original: lines(["tel:1", "TEL:1"]), exported: lines(["TEL:1", "Tel:1"]))
        #expect(comparison.exact == 1)
        #expect(comparison.equivalent == 1)
        #expect(comparison.lost.isEmpty)
    }
}
