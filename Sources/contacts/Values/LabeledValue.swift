import PlainContacts

/// A value typed as `[LABEL:]VALUE`: `mobile:+1 555 0100`, `work:kim@example.com`,
/// `https://example.com`.
///
/// The part before the first `:` is the label when it is a predefined label (`mobile`,
/// `iPhone`, `main`, `home`, `work`, `other`, `homeFax`, `workFax`, `otherFax`, `pager`,
/// `homePage`…, in any case, or their display names such as `home fax`), or when it is a
/// custom word without spaces, digits or the characters `/ + @ .` that is not a URL scheme
/// (`https://x`, `mailto:x`, `tel:+1…` keep their colon). A leading `:` means "no label": `:a:b`
/// is the value `a:b`.
struct LabeledValue: Equatable {
    var label: Label?
    var value: String

    /// URL schemes that are never taken for a label even without `//`.
    private static let schemes: Set<String> = [
        "http", "https", "ftp", "ftps", "sftp", "file", "mailto", "tel", "sms", "sip", "sips", "xmpp", "im",
        "geo", "skype", "callto", "facetime", "matrix", "irc", "ircs", "urn", "data", "news", "git", "ssh",
    ]

    init(label: Label?, value: String) {
        self.label = label
        self.value = value
    }

    init(parsing text: String) {
        guard let colon = text.firstIndex(of: ":") else {
            self.init(label: nil, value: text.trimmingWhitespace)
            return
        }
        let word = String(text[..<colon])
        let rest = String(text[text.index(after: colon)...])
        if word.isEmpty {
            self.init(label: nil, value: rest.trimmingWhitespace)
        } else if let label = LabeledValue.predefinedLabel(word) {
            self.init(label: label, value: rest.trimmingWhitespace)
        } else if LabeledValue.isCustomLabel(word, before: rest) {
            self.init(label: Label(word), value: rest.trimmingWhitespace)
        } else {
            self.init(label: nil, value: text.trimmingWhitespace)
        }
    }

    /// The predefined label `word` names, by its stored word or display name, in any case.
    static func predefinedLabel(_ word: String) -> Label? {
        let folded = word.trimmingWhitespace.lowercased()
        return Label.predefined.first { $0.rawValue.lowercased() == folded || $0.localizedName.lowercased() == folded }
    }

    private static func isCustomLabel(_ word: String, before rest: String) -> Bool {
        if rest.hasPrefix("//") || schemes.contains(word.lowercased()) { return false }
        return word.unicodeScalars.allSatisfy { scalar in
            !scalar.properties.isWhitespace && scalar.properties.numericType == nil
                && !"/+@.".unicodeScalars.contains(scalar)
        }
    }
}
