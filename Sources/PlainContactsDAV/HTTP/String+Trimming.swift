import FoundationEssentials

extension String {
    /// The text without white space and line breaks at both ends, as header values and XML
    /// text are read on both sides.
    var trimmingWhitespaceAndNewlines: String {
        trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
