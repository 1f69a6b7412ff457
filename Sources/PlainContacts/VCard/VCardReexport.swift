import FoundationEssentials

/// Cards read as an import reads them and exported back, as the store would: what the vCard
/// fuzzer checks, that every person the store takes from a card it can also export as a card
/// that reads back.
///
/// ```swift
/// if let failure = try VCardReexport.failure(reading: data, source: "export.vcf") {
///     print(failure)   // "the 3.0 export of a card reads back as 2 cards"
/// }
/// ```
package enum VCardReexport {
    /// Reads `data` leniently, as an import does before it touches a book, maps each card, and
    /// exports each person read in every vCard version, reading each export back.
    ///
    /// ```swift
    /// let failure = try VCardReexport.failure(reading: Data("BEGIN:VCARD\r\nFN:Ada\r\nEND:VCARD\r\n".utf8), source: "a.vcf")
    /// // nil
    /// ```
    ///
    /// - Returns: why an export did not read back as one card, or `nil` when each did.
    /// - Throws: the errors of reading and mapping the cards
    ///   (``PlainContactsError/Code/malformedVCard`` and the other codes of ``InterchangeError``).
    package static func failure(reading data: Data, source: String) throws -> String? {
        var reader = VCardStreamReader(data: data, source: source)
        while let card = try reader.next() {
            _ = card.warnings(source: source)
            if case .person(let imported) = try VCardImporter.map(card, source: source),
                let failure = exportFailure(of: imported)
            {
                return failure
            }
        }
        return nil
    }

    /// Exports a person read from a card in every version and reads each export leniently;
    /// why one did not give back one card, or `nil`.
    private static func exportFailure(of imported: ImportedPerson) -> String? {
        _ = (imported.person.compositeName, imported.person.state.nameHash)
        for version in VCardVersion.allCases {
            let card = VCardExporter.card(
                for: imported.person, groupNames: imported.groupNames, imageData: nil, version: version)
            let text = Data(VCardWriter.serialize(card).utf8)
            do {
                let cards = try VCardReader.parse(text, source: "export.vcf")
                if cards.count != 1 { return "the \(version.rawValue) export of a card reads back as \(cards.count) cards" }
            } catch {
                return "the \(version.rawValue) export of a card does not read back: \(error)"
            }
        }
        return nil
    }
}
