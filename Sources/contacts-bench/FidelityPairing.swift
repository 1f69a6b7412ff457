/// Which person answers for which card of a file.
enum FidelityPairing {
    /// Pairs of (card index, export index), in order. When there are as many people as cards,
    /// the n-th person is the n-th card's; otherwise (cards were refused) cards and people are
    /// walked together and a card is paired with the next person when they share a line and
    /// the card after it does not share more, else the card is taken as refused.
    static func pairs(_ cards: [FidelityCard], _ exports: [[FidelityLine]?]) -> [(card: Int, export: Int)] {
        if cards.count == exports.count { return cards.indices.map { ($0, $0) } }
        func score(_ card: Int, _ export: Int) -> Int {
            guard let lines = exports[export] else { return 0 }
            let comparison = FidelityComparison(original: cards[card].lines, exported: lines)
            return comparison.exact + comparison.equivalent
        }
        var pairs: [(card: Int, export: Int)] = []
        var card = 0
        var export = 0
        while card < cards.count, export < exports.count {
            let here = score(card, export)
            if here > 0, card + 1 >= cards.count || score(card + 1, export) <= here {
                pairs.append((card, export))
                export += 1
            }
            card += 1
        }
        return pairs
    }
}
