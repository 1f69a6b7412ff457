import Foundation

/// Reads vCard text (versions 2.1, 3.0 and 4.0) into ``VCard`` values.
///
/// The reader accepts several cards per input, CRLF, LF, lone CR or CR CR LF line ends, a
/// UTF-8 byte order mark, blank lines, folded lines, vCard 2.1 quoted-printable values with
/// soft line breaks and `CHARSET` parameters, and base64 values (kept as base64 text). It
/// checks syntax only; what a property means is left to the caller.
///
/// ```swift
/// let data = try Data(contentsOf: url)
/// let cards = try VCardReader.parse(data, source: url.lastPathComponent)
/// ```
///
/// For large files, ``VCardStreamReader`` reads one card at a time.
package enum VCardReader {
    /// Parses every card in `data`; `source` names the input (a file name) in errors.
    ///
    /// By default the reader recovers from what breaks the syntax (see `VCardParser+Recovery.swift`)
    /// and lists each recovery in the card's ``VCard/recoveries``; with `strict` it refuses it.
    ///
    /// - Throws: `InterchangeError` `.malformedVCard` with `path` set to `source` and `line` set to
    ///   the 1-based line at fault: for input that holds text but no card; with `strict`, for a
    ///   card without `END:VCARD` (the line of its `BEGIN`), a content line without `:`, text
    ///   outside a card, malformed quoted-printable, or a value that is not valid in its charset.
    package static func parse(_ data: Data, source: String, strict: Bool = false) throws -> [VCard] {
        var cards: [VCard] = []
        try forEachCard(in: data, source: source, strict: strict) { cards.append($0) }
        return cards
    }

    /// Calls `body` with each card in `data` as soon as it has been read.
    ///
    /// ```swift
    /// try VCardReader.forEachCard(in: data, source: "export.vcf") { card in
    ///     print(card.first(named: "FN")?.text ?? "")
    /// }
    /// ```
    /// - Throws: What ``parse(_:source:strict:)`` throws, and what `body` throws.
    static func forEachCard(
        in data: Data, source: String, strict: Bool = false, _ body: (VCard) throws -> Void
    ) throws {
        var reader = VCardStreamReader(data: data, source: source)
        reader.isStrict = strict
        try reader.forEachCard(body)
    }
}
