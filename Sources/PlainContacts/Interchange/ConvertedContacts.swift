import FoundationEssentials

/// Contacts read from a file in another format (CSV, LDIF, abook, mutt aliases), turned into
/// vCard 3.0 text so that one import path, with its matching, merging and group handling,
/// takes every format.
///
/// Each line of ``vCardText`` remembers the line of the original file it came from, so that
/// warnings and errors name the line the user can open.
///
/// ```swift
/// let converted = try ContactConverter.convert(data, source: "google.csv", format: .csv)
/// converted.sourceLine(ofLine: 4)   // the CSV row that card line 4 came from
/// ```
struct ConvertedContacts: Sendable {
    /// The cards, vCard 3.0 with CRLF line ends.
    var vCardText: [UInt8]
    /// For each line of ``vCardText`` (index 0 is line 1), the 1-based line of the original
    /// file it came from.
    var sourceLines: [Int]
    /// What the conversion recovered from or guessed, each naming the file and line.
    var warnings: [InterchangeError]
    /// The number of cards written.
    var cardCount: Int
    /// The layout the reader took when the content told it rather than a header or the
    /// format's own markers, such as "Thunderbird's columns without a header row".
    var layout: String?
    /// The format read, as the import report names it: `csv`, or `csv (Thunderbird's columns
    /// without a header row)`.
    var formatRead = ""

    /// The line of the original file that line `line` (1-based) of ``vCardText`` came from;
    /// the last known line for a line past the end.
    func sourceLine(ofLine line: Int) -> Int {
        Self.sourceLine(ofLine: line, in: sourceLines)
    }

    /// The original file's line for line `line` of converted text with these `sourceLines`;
    /// `line` itself when there are none.
    static func sourceLine(ofLine line: Int, in sourceLines: [Int]) -> Int {
        guard !sourceLines.isEmpty else { return line }
        return sourceLines[min(max(line, 1), sourceLines.count) - 1]
    }

    /// `error` naming the original file's line instead of the vCard text's.
    func relocated(_ error: InterchangeError) -> InterchangeError {
        guard let line = error.line else { return error }
        var relocated = error
        relocated.line = sourceLine(ofLine: line)
        return relocated
    }
}
