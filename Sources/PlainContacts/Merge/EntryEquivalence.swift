import FoundationEssentials

/// When two multi-value entries that two sides added on their own are one value: the rule
/// every merge shares (the Git merge driver, a save over another process's change, the sync's
/// property merge), so that a value that reaches a record by two paths is one entry.
///
/// Two entries are the same when their labels are equal and their values are the same value:
/// phone numbers compared as numbers (their digits, so `+1 555 0100` and `+15550100` are one),
/// email addresses without surrounding space and case, anything else exactly.
///
/// ```swift
/// let same = EntryEquivalence.sameValue(for: .phones)
/// same("+1 (555) 0100", "+1 555-0100")   // true
/// ```
enum EntryEquivalence {
    /// The comparison of two text values of `property`.
    static func sameValue(for property: PropertyID) -> @Sendable (String, String) -> Bool {
        switch property {
        case .phones: samePhone
        case .emails: sameEmail
        default: { $0 == $1 }
        }
    }

    /// Phone numbers with the same digits; numbers without digits (`ext`, a name) compare as text.
    @Sendable static func samePhone(_ a: String, _ b: String) -> Bool {
        let (x, y) = (digits(of: a), digits(of: b))
        return x.isEmpty && y.isEmpty ? a == b : x == y
    }

    /// Email addresses equal once trimmed and folded to lower case.
    @Sendable static func sameEmail(_ a: String, _ b: String) -> Bool {
        a.trimmingCharacters(in: .whitespaces).lowercased() == b.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The decimal digits of a phone number, in any script, as ASCII digits.
    static func digits(of phone: String) -> String {
        String(phone.unicodeScalars.filter { $0.properties.numericType == .decimal }.compactMap { scalar in
            scalar.properties.numericValue.map { Character(String(Int($0))) }
        })
    }

    /// Whether two entries added independently are one entry: equal labels and the same value.
    static func sameEntry<Value>(
        _ a: MultiValue<Value>.Entry, _ b: MultiValue<Value>.Entry, sameValue: (Value, Value) -> Bool
    ) -> Bool {
        a.label == b.label && sameValue(a.value, b.value)
    }
}
