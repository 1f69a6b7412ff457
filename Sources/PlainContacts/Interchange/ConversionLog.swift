/// What a conversion from another format recovered from, one warning per recovery naming the
/// file and line; with a strict import the first recovery refuses the input instead.
///
/// ```swift
/// var log = ConversionLog(source: "google.csv", strict: false)
/// try log.recover("the row has 3 cells more than the header; they were kept", line: 12)
/// ```
struct ConversionLog {
    /// The file name used in warnings and errors.
    let source: String
    /// Whether a recovery refuses the input.
    let strict: Bool
    /// The warnings so far, in the order made.
    private(set) var warnings: [InterchangeError] = []

    /// Notes a recovery at `line`, saying what was done.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedInput`` naming the file and line, when strict.
    mutating func recover(_ message: String, line: Int) throws {
        let error = InterchangeError(.malformedInput, message, path: source, line: line)
        if strict { throw error }
        warnings.append(error)
    }

    /// The error that refuses the input, strict or not.
    func refusal(_ message: String, line: Int?) -> InterchangeError {
        InterchangeError(.malformedInput, message, path: source, line: line)
    }
}
