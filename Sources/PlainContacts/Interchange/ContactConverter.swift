import FoundationEssentials

/// Turns a contacts file in another format into vCard text for import (see
/// ``ConvertedContacts``).
///
/// ```swift
/// let converted = try ContactConverter.convert(data, source: "export.ldif", format: .ldif, strict: false)
/// ```
enum ContactConverter {
    /// Converts `bytes` in `format` (not ``ContactFileFormat/vcard``, which needs no converting).
    ///
    /// - Throws: ``PlainContactsError/Code/malformedInput`` naming `source` and the line when the
    ///   file cannot be read, holds no contact, or (when `strict`) needs any recovery.
    static func convert(
        _ bytes: [UInt8], source: String, format: ContactFileFormat, strict: Bool
    ) throws -> ConvertedContacts {
        var log = ConversionLog(source: source, strict: strict)
        let (text, guessed) = InterchangeText.decode(bytes)
        if let guessed {
            try log.recover("the file is not UTF-8; it was read as \(guessed)", line: 1)
        }
        var converted: ConvertedContacts
        switch format {
        case .vcard:
            return ConvertedContacts(
                vCardText: Array(text.utf8), sourceLines: [], warnings: log.warnings, cardCount: 0)
        case .csv: converted = try CSVContactReader.convert(text, log: &log)
        case .ldif: converted = try LDIFContactReader.convert(text, log: &log)
        case .abook: converted = try AbookContactReader.convert(text, log: &log)
        case .mutt: converted = try MuttAliasReader.convert(text, log: &log)
        case .eudora: converted = try EudoraNicknamesReader.convert(text, log: &log)
        }
        guard converted.cardCount > 0 else {
            throw log.refusal("the file holds no contact to import (read as \(format.rawValue))", line: nil)
        }
        converted.warnings = log.warnings
        converted.formatRead = converted.layout.map { "\(format.rawValue) (\($0))" } ?? format.rawValue
        return converted
    }
}
