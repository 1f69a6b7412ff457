/// One row of the results: an operation and its measured sample.
struct Figure: Encodable {
    /// What the sample counts.
    enum Unit: String, Encodable {
        case seconds
        case kilobytes
        case cardsPerSecond
    }

    /// A stable identifier, the same at every size (`open`, `search.book.ka`, `import`).
    var id: String
    /// The operation as the table shows it.
    var label: String
    var unit: Unit
    var sample: Sample
    /// The median divided by the raw-read floor's median, for timed figures.
    var floorRatio: Double?
    /// What the operation found or did (`1,204 matches`), for the reader.
    var detail: String?
}
