import FoundationEssentials

/// The formats `import` reads, found from a file's content, its name only as a hint.
///
/// ```swift
/// ContactFileFormat.detect(Array("First Name,Last Name\n".utf8), fileName: "google.csv")   // .csv
/// ContactFileFormat.detect(Array("alias kb Katie <k@x.example>\n".utf8), fileName: nil)   // .mutt
/// ```
public enum ContactFileFormat: String, Sendable, CaseIterable {
    /// vCard 2.1, 3.0 or 4.0.
    case vcard
    /// Comma-, semicolon- or tab-separated values with a header row: Google Contacts, Outlook,
    /// Thunderbird, Yahoo, LinkedIn and others.
    case csv
    /// LDAP Data Interchange Format (RFC 2849), as Thunderbird and other mail clients export.
    case ldif
    /// abook's `addressbook` file.
    case abook
    /// A mutt or neomutt alias file.
    case mutt
    /// A Eudora nicknames file: `alias` lines and `note` lines of `<tag:value>` fields.
    case eudora

    /// How many bytes at the start of a file the detection reads.
    private static let sniffedBytes = 64 * 1024

    /// The format of a file from its first bytes, the file name settling what the content
    /// leaves open; `nil` when neither tells.
    public static func detect(_ bytes: some Collection<UInt8>, fileName: String?) -> ContactFileFormat? {
        let text = InterchangeText.decode(Array(bytes.prefix(sniffedBytes))).text
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            .map { $0.trimmingPrefix(while: \.isWhitespace) }
            .filter { !$0.isEmpty }
        let hint = fileName.flatMap(hinted)
        if lines.prefix(200).contains(where: { $0.lowercased().hasPrefix("begin:vcard") }) { return .vcard }
        let meaningful = lines.filter { !$0.hasPrefix("#") }
        guard let first = meaningful.first else { return hint }
        let lowered = first.lowercased()
        if lowered.hasPrefix("dn:") || lowered.hasPrefix("dn::")
            || (lowered.hasPrefix("version:") && meaningful.dropFirst().first?.lowercased().hasPrefix("dn") == true)
        {
            return .ldif
        }
        if meaningful.prefix(50).contains(where: { $0 == "[format]" })
            || (meaningful.prefix(50).contains { Self.isAbookSection($0) }
                && meaningful.prefix(50).contains { $0.hasPrefix("name=") })
        {
            return .abook
        }
        if meaningful.prefix(200).contains(where: EudoraNicknamesReader.isNoteLine),
            meaningful.prefix(200).contains(where: { $0.hasPrefix("alias ") || $0.hasPrefix("alias\t") })
        {
            return .eudora
        }
        let aliasLines = meaningful.prefix(50).filter { Self.isMuttLine($0) }
        if !aliasLines.isEmpty, aliasLines.count * 2 >= min(meaningful.count, 50) { return .mutt }
        if hint == .vcard || hint == .ldif || hint == .abook || hint == .mutt || hint == .eudora { return hint }
        if first.contains(",") || first.contains("\t") || first.contains(";") { return .csv }
        return hint
    }

    /// The format a file name suggests.
    private static func hinted(_ fileName: String) -> ContactFileFormat? {
        let name = fileName.split(separator: "/").last.map(String.init)?.lowercased() ?? ""
        let suffix = name.split(separator: ".").count > 1 ? name.split(separator: ".").last.map(String.init) : nil
        switch suffix {
        case "vcf", "vcard": return .vcard
        case "csv", "tsv", "tab": return .csv
        case "ldif", "ldi": return .ldif
        default: break
        }
        if name == "addressbook" { return .abook }
        if name == "nndbase.txt" { return .eudora }
        if name.contains("alias") || name.hasSuffix("muttrc") { return .mutt }
        return nil
    }

    private static func isAbookSection(_ line: Substring) -> Bool {
        line.first == "[" && line.last == "]" && line.dropFirst().dropLast().allSatisfy(\.isNumber)
            && line.count > 2
    }

    private static func isMuttLine(_ line: Substring) -> Bool {
        let word = line.prefix { !$0.isWhitespace }
        return (word == "alias" || word == "unalias" || word == "set" || word == "source")
            && line.count > word.count
    }
}
