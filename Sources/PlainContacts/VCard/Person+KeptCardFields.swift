import FoundationEssentials

/// What a person's record keeps of the card it came from, beyond its properties: what a
/// comparison of people across stores and round trips looks at besides their values.
extension Person {
    /// The card's UID the record stores (`nil` for none) and the content lines it keeps
    /// (see ``VCardRecordFields``) that export writes back as they are, in order: the lines of
    /// properties a card holds once (``VCardExporter/singleValued``, with or without a group
    /// such as `item1.`) are left out, since export writes those from the model.
    ///
    /// ```swift
    /// let kept = katie.keptCardFields
    /// kept.uid     // "d69c71e5-…"
    /// kept.lines   // ["X-MAIDENNAME:Bell", "item2.X-ABLABEL:school"]
    /// ```
    package var keptCardFields: (uid: String?, lines: [String]) {
        let lines = VCardRecordFields.lines(of: state).filter { line in
            let head = line.prefix { $0 != ":" && $0 != ";" }
            let name = (head.split(separator: ".").last.map(String.init) ?? "").uppercased()
            return !VCardExporter.singleValued.contains(name)
        }
        return (VCardRecordFields.uid(of: state), lines)
    }
}
