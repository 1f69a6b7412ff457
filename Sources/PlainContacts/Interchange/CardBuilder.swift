/// Writes vCard 3.0 cards for contacts read from another format, one property at a time,
/// remembering for each line the line of the original file it came from.
///
/// Values are escaped here; labels become `TYPE` words where vCard has them and Apple item
/// labels (`item1.X-ABLabel`) otherwise, as the exporter writes them, so that the import reads
/// them back as the same labels.
///
/// ```swift
/// var builder = CardBuilder()
/// builder.begin(line: 2)
/// builder.addName(last: "Bell", first: "Katie", line: 2)
/// builder.addLabelled("EMAIL", kind: .email, label: "work", value: "katie@acme.example", line: 2)
/// builder.end()
/// let converted = builder.finish(warnings: [])
/// ```
struct CardBuilder {
    private var text: [UInt8] = []
    private var lines: [Int] = []
    private var labelled: [Labelled] = []
    private var cardLine = 0
    private var displayName: String?
    private var properties: [(line: String, source: Int)] = []
    private(set) var cardCount = 0

    /// Starts a card for the record that begins at `line` of the original file.
    mutating func begin(line: Int) {
        cardLine = line
        labelled = []
        displayName = nil
        properties = []
    }

    /// Whether the card begun holds any property yet.
    var isEmpty: Bool { properties.isEmpty && labelled.isEmpty && displayName == nil }

    /// Adds `N` from its parts; empty parts are fine, a name with no part at all is left out.
    mutating func addName(
        last: String = "", first: String = "", middle: String = "", prefix: String = "", suffix: String = "",
        line: Int
    ) {
        let parts = [last, first, middle, prefix, suffix].map(Self.trimmed)
        guard parts.contains(where: { !$0.isEmpty }) else { return }
        add(line: "N:" + VCardText.structured(parts.map { [$0] }), source: line)
    }

    /// Sets the name to show (`FN`); written when the card ends.
    mutating func setDisplayName(_ name: String) {
        let name = Self.trimmed(name)
        if !name.isEmpty { displayName = name }
    }

    /// Adds a property with a text value, escaped; empty text is left out.
    mutating func addText(_ name: String, parameters: String = "", _ value: String, line: Int) {
        let value = Self.trimmed(value)
        guard !value.isEmpty else { return }
        add(line: name + parameters + ":" + VCardText.escape(value), source: line)
    }

    /// Adds a structured property (`ORG`, `ADR`) from its components, escaped; left out when
    /// every component is empty.
    mutating func addStructured(_ name: String, parameters: String = "", _ components: [String], line: Int) {
        let components = components.map(Self.trimmed)
        guard components.contains(where: { !$0.isEmpty }) else { return }
        add(line: name + parameters + ":" + VCardText.structured(components.map { [$0] }), source: line)
    }

    /// Adds a labelled value: `TYPE` words for a label vCard has words for, an Apple item label
    /// for any other (and for every label of a `kind` of `nil`, such as `X-ABDATE`); an empty
    /// value is left out.
    ///
    /// Labelled values are written after the other properties, in the order the exporter
    /// writes them (phones, emails, addresses, websites, dates, related names, accounts), so
    /// that their item groups are numbered as an export numbers them and the import has no
    /// reason to remember how the lines were spelled.
    mutating func addLabelled(
        _ name: String, kind: VCardValueKind?, label: Label?, value: String, structured: [String]? = nil,
        preferred: Bool = false, line: Int
    ) {
        let rendered: String
        if let structured {
            let parts = structured.map(Self.trimmed)
            guard parts.contains(where: { !$0.isEmpty }) else { return }
            rendered = VCardText.structured(parts.map { [$0] })
        } else {
            let value = Self.trimmed(value)
            guard !value.isEmpty else { return }
            rendered = VCardText.escape(value)
        }
        labelled.append(
            Labelled(name: name, kind: kind, label: label, value: rendered, preferred: preferred, source: line))
    }

    /// A labelled value waiting for the card's end.
    private struct Labelled {
        var name: String
        var kind: VCardValueKind?
        var label: Label?
        var value: String
        var preferred: Bool
        var source: Int

        /// Where the exporter puts this property among the labelled ones.
        var rank: Int {
            let base = name.split(separator: ";").first.map(String.init) ?? name
            return Self.exportOrder.firstIndex(of: base) ?? Self.exportOrder.count
        }

        private static let exportOrder = ["TEL", "EMAIL", "ADR", "URL", "X-ABDATE", "X-ABRELATEDNAMES", "IMPP"]
    }

    /// Writes the labelled values, item groups numbered from 1 in export order.
    private mutating func appendLabelled() {
        var itemCount = 0
        let ordered = labelled.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
        for entry in ordered.map(\.element) {
            var types: [String] = []
            var group: String?
            if let label = entry.label {
                if let kind = entry.kind, let words = VCardLabels.types(for: label, kind: kind) {
                    types = words
                } else {
                    itemCount += 1
                    group = "item\(itemCount)"
                }
            }
            if entry.preferred { types.append("PREF") }
            let parameters = types.isEmpty ? "" : ";TYPE=" + types.joined(separator: ",")
            let head = group.map { "\($0)." } ?? ""
            append(head + entry.name + parameters + ":" + entry.value, source: entry.source)
            if let group, let label = entry.label {
                append("\(group).X-ABLabel:" + VCardText.escape(VCardLabels.appleLabel(for: label)), source: entry.source)
            }
        }
        labelled = []
    }

    /// Adds a date property as the exporter writes it: a year-less date as Apple's
    /// `X-APPLE-OMIT-YEAR=1604` form, which vCard 3.0 readers take.
    mutating func addDate(_ name: String, _ date: ContactDate, label: Label? = nil, line: Int) {
        let property = VCardValues.dateProperty(name: name, date: date, version: .v3)
        let parameters = property.parameters.map { ";\($0.name)=" + $0.values.joined(separator: ",") }.joined()
        if let label {
            addLabelled(name + parameters, kind: nil, label: label, value: property.rawValue, line: line)
        } else {
            add(line: name + parameters + ":" + property.rawValue, source: line)
        }
    }

    /// Adds the groups the contact belongs to (`CATEGORIES`).
    mutating func addGroups(_ names: [String], line: Int) {
        var seen: Set<String> = []
        let names = names.map(Self.trimmed).filter { !$0.isEmpty && seen.insert($0).inserted }
        guard !names.isEmpty else { return }
        add(line: "CATEGORIES:" + names.map(VCardText.escape).joined(separator: ","), source: line)
    }

    /// Keeps a field the model has no place for, under its name in the original format, so
    /// that it stays with the person and export writes it back:
    /// `X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Gender":female`.
    mutating func addKept(format: String, field: String, value: String, line: Int) {
        let value = Self.trimmed(value)
        guard !value.isEmpty else { return }
        add(line: KeptField(format: format, name: field, value: value).contentLine, source: line)
    }

    /// Adds a group card (`X-ADDRESSBOOKSERVER-KIND:group`), so that a list is created even
    /// when it has no members; members join it through their own cards' `CATEGORIES`. The
    /// list's own fields the model has no place for (an LDIF list's `description`) are kept
    /// with the group as `X-IMPORTED-FIELD` lines.
    mutating func addGroupCard(name: String, line: Int, keeping kept: [KeptField] = []) {
        begin(line: line)
        add(line: "X-ADDRESSBOOKSERVER-KIND:group", source: line)
        setDisplayName(name)
        for field in kept { addKept(format: field.format, field: field.name, value: field.value, line: line) }
        end()
    }

    /// Adds a raw content line as written (already escaped), for what the builder has no
    /// helper for (`UID`).
    mutating func addLine(_ contentLine: String, line: Int) {
        add(line: contentLine, source: line)
    }

    /// Ends the card begun; a card with nothing in it is dropped.
    mutating func end() {
        guard !isEmpty else { return }
        cardCount += 1
        append("BEGIN:VCARD", source: cardLine)
        append("VERSION:3.0", source: cardLine)
        if let displayName { append("FN:" + VCardText.escape(displayName), source: cardLine) }
        for property in properties { append(property.line, source: property.source) }
        let lastSource = labelled.last?.source ?? properties.last?.source ?? cardLine
        appendLabelled()
        append("END:VCARD", source: lastSource)
        properties = []
        displayName = nil
    }

    /// The cards written, with `warnings`.
    func finish(warnings: [InterchangeError]) -> ConvertedContacts {
        ConvertedContacts(vCardText: text, sourceLines: lines, warnings: warnings, cardCount: cardCount)
    }

    private mutating func add(line: String, source: Int) {
        properties.append((line, source))
    }

    private mutating func append(_ line: String, source: Int) {
        text += line.utf8
        text += [13, 10]
        lines.append(source)
    }

    /// Text made safe as an unquoted parameter value: without line breaks, control characters
    /// and the `;`, `:`, `,` and `"` that would end it.
    static func parameterValue(_ text: String) -> String {
        text.filter { character in
            !character.isNewline && !(character.asciiValue.map { $0 < 32 || $0 == 127 } ?? false)
                && character != ";" && character != ":" && character != "," && character != "\""
        }
    }

    /// `text` without white space and line breaks at either end.
    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
