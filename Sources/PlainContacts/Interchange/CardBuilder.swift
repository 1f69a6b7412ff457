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
    private var itemCount = 0
    private var cardLine = 0
    private var displayName: String?
    private var properties: [(line: String, source: Int)] = []
    private(set) var cardCount = 0

    /// Starts a card for the record that begins at `line` of the original file.
    mutating func begin(line: Int) {
        cardLine = line
        itemCount = 0
        displayName = nil
        properties = []
    }

    /// Whether the card begun holds any property yet.
    var isEmpty: Bool { properties.isEmpty && displayName == nil }

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
    /// for any other; an empty value is left out.
    mutating func addLabelled(
        _ name: String, kind: VCardValueKind, label: Label?, value: String, structured: [String]? = nil,
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
        var types: [String] = []
        var group: String?
        if let label {
            if let words = VCardLabels.types(for: label, kind: kind) {
                types = words
            } else {
                itemCount += 1
                group = "item\(itemCount)"
            }
        }
        if preferred { types.append("PREF") }
        let parameters = types.isEmpty ? "" : ";TYPE=" + types.joined(separator: ",")
        let head = group.map { "\($0)." } ?? ""
        add(line: head + name + parameters + ":" + rendered, source: line)
        if let group, let label {
            add(line: "\(group).X-ABLabel:" + VCardText.escape(VCardLabels.appleLabel(for: label)), source: line)
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
        let name = field.replacing("\"", with: "'").filter { $0 != "\r" && $0 != "\n" }
        add(
            line: "X-IMPORTED-FIELD;X-FORMAT=\(format);X-NAME=\"\(name)\":" + VCardText.escape(value), source: line)
    }

    /// Adds a group card (`X-ADDRESSBOOKSERVER-KIND:group`), so that a list is created even
    /// when it has no members; members join it through their own cards' `CATEGORIES`.
    mutating func addGroupCard(name: String, line: Int) {
        begin(line: line)
        add(line: "X-ADDRESSBOOKSERVER-KIND:group", source: line)
        setDisplayName(name)
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
        append("END:VCARD", source: properties.last?.source ?? cardLine)
        properties = []
        displayName = nil
    }

    /// The cards written, with `warnings`.
    func finish(warnings: [ContactsError]) -> ConvertedContacts {
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

    /// `text` without white space and line breaks at either end.
    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
