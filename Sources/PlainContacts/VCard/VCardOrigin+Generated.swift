/// Telling whether export's lines say all a card's did, which takes the vCard reader's types:
/// the origin itself, kept in a record, is the record format's.
extension VCardOrigin {
    /// Whether export's properties for a value say all that the card's own lines said, so that
    /// nothing needs keeping: the same lines, groups, names, values (however escaped) and
    /// parameters, except that export may add `TYPE` words (`INTERNET`, `CELL` beside `IPHONE`) and leave out the
    /// default types `VOICE` of `TEL` and `INTERNET` of `EMAIL`. Anything else, such as `PREF`,
    /// another parameter or an item group, makes the card's lines worth keeping.
    static func generatedSaysAll(of original: [VCardProperty], _ generated: [VCardProperty]) -> Bool {
        guard original.count == generated.count else { return false }
        for (card, made) in zip(original, generated) {
            guard card.name == made.name, sameValue(card, made),
                card.group.map(VCardText.asciiUppercased) == made.group.map(VCardText.asciiUppercased),
                otherParameters(card) == otherParameters(made)
            else { return false }
            let defaults: Set<String> = card.name == "TEL" ? ["VOICE"] : card.name == "EMAIL" ? ["INTERNET"] : []
            guard card.types.subtracting(defaults).isSubset(of: made.types) else { return false }
        }
        return true
    }

    /// Whether two properties hold the same value, however each escapes it: the same
    /// components for a structured one (`N`, `ADR`, `ORG`), the same text for any other.
    private static func sameValue(_ card: VCardProperty, _ made: VCardProperty) -> Bool {
        if card.rawValue == made.rawValue { return true }
        switch card.name {
        case "N", "ADR", "ORG": return card.components == made.components
        default: return card.text == made.text
        }
    }

    /// The parameters other than `TYPE`, with their values, in a comparable form.
    private static func otherParameters(_ property: VCardProperty) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for parameter in property.parameters where parameter.name != "TYPE" {
            result[parameter.name, default: []] += parameter.values
        }
        return result
    }
}
