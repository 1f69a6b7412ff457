/// What one change of the collection adds to its state file (``CardDAVStateFile``): lines of
/// removals, and the names of the cards whose lines are written as the cards are when the change
/// is recorded (after the other lines, so that a card removed and made again in one change ends
/// as made), unless the whole file is rewritten.
///
/// ```swift
/// var changes = CardDAVStateChanges()
/// changes.add(CardDAVStateFile.line(removed: "k.vcf", sequence: 8))
/// changes.add(card: "o.vcf")
/// changes.count   // 2
/// ```
struct CardDAVStateChanges {
    /// The lines other than cards', one after another.
    private(set) var lines: [UInt8] = []
    /// How many lines in ``lines``.
    private var lineCount = 0
    /// The names of the cards that changed.
    private(set) var cards: [String] = []
    /// Set when the whole file must be written (removals were forgotten).
    var forcesRewrite = false

    /// How many lines the change adds.
    var count: Int { lineCount + cards.count }

    /// Adds a line.
    mutating func add(_ line: [UInt8]) {
        lines += line
        lineCount += 1
    }

    /// Adds the line of a card.
    mutating func add(card name: String) {
        cards.append(name)
    }
}
