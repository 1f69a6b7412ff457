/// How the lines of an original card fare in an exported one.
///
/// Each exported line answers for one original line at most: identical lines are paired first
/// ("exact"), then equivalent ones (``FidelityLine/key``, "equivalent"); an original line left
/// without a partner is "lost". So a card's two identical `TEL` lines merged into one count
/// one line lost.
///
/// ```swift
/// let tally = FidelityComparison(original: card.lines, exported: FidelityCard.cards(inText: text)[0].lines)
/// print(tally.exact, tally.equivalent, tally.lost.count)
/// ```
struct FidelityComparison {
    /// Original lines with an identical exported line.
    var exact = 0
    /// Original lines with an equivalent exported line.
    var equivalent = 0
    /// Original lines with neither, in their order.
    var lost: [FidelityLine] = []

    /// Compares an original card's lines with an exported card's lines.
    init(original: [FidelityLine], exported: [FidelityLine]) {
        var byText: [String: Int] = [:]
        for line in exported { byText[line.text, default: 0] += 1 }
        var unmatched: [FidelityLine] = []
        var pairedExported: [String: Int] = [:]
        for line in original {
            if let count = byText[line.text], count > 0 {
                byText[line.text] = count - 1
                pairedExported[line.text, default: 0] += 1
                exact += 1
            } else {
                unmatched.append(line)
            }
        }
        var byKey: [FidelityLine.Key: Int] = [:]
        for line in exported {
            if let paired = pairedExported[line.text], paired > 0 {
                pairedExported[line.text] = paired - 1
            } else {
                byKey[line.key, default: 0] += 1
            }
        }
        for line in unmatched {
            if let count = byKey[line.key], count > 0 {
                byKey[line.key] = count - 1
                equivalent += 1
            } else {
                lost.append(line)
            }
        }
    }
}
