/// The value people are sorted by, for one sort ordering.
///
/// The AddressBook equivalent is `ABPersonComparePeopleByName`.
///
/// ```swift
/// let bell = SortKey(NameParts(firstName: "Katie", lastName: "Bell"), ordering: .lastName)
/// let adams = SortKey(NameParts(firstName: "Zoë", lastName: "Adams"), ordering: .lastName)
/// adams < bell  // true
/// // With equal keys, callers order people by record ID.
/// ```
///
/// A key holds a primary and a secondary string, compared in that order:
/// - For ``SortOrdering/lastName`` they are the last name and the first name; for
///   ``SortOrdering/firstName``, the first name and the last name. Each part is its phonetic
///   form when that is present, else its written form, so a Japanese name sorts by its
///   reading. When the primary part is missing, the other part becomes the primary string
///   and the secondary string is empty: "Madonna" sorts among the M's either way.
/// - An organization-kind record with an organization name sorts by that name.
/// - A record with neither first nor last name (written or phonetic) sorts by, in this
///   order of preference, its organization name, its middle name (phonetic, else
///   written), its nickname.
/// - A record with none of these has no name and sorts after every record that has one.
///
/// The strings are folded with ``NameNormalizer/normalize(_:)``, so sorting ignores case,
/// diacritics and full-width forms. They are compared by their Unicode scalar values, which
/// gives the same order on every machine. This is not the collation of any locale: accented
/// letters sort with their base letter because the normalizer drops the accent, but scripts
/// sort in code point order (Latin before Cyrillic before kana before Han).
///
/// Keys do not break ties: two people with the same names have equal keys. Callers sort
/// people with equal keys by record ID.
struct SortKey: Sendable, Hashable, Comparable {
    /// Whether the record has any name to sort by; records without one sort last.
    let hasName: Bool
    /// The normalized string compared first; empty when ``hasName`` is `false`.
    let primary: String
    /// The normalized string compared when the primary strings are equal; may be empty.
    let secondary: String

    /// Creates the sort key of the record named by `parts` for `ordering`.
    init(_ parts: NameParts, ordering: SortOrdering) {
        let organization = Self.normalized(parts.organization)
        if parts.isOrganization, !organization.isEmpty {
            self.init(primary: organization)
            return
        }
        let last = Self.normalized(parts.lastNamePhonetic, else: parts.lastName)
        let first = Self.normalized(parts.firstNamePhonetic, else: parts.firstName)
        let (major, minor) = ordering == .lastName ? (last, first) : (first, last)
        if !major.isEmpty {
            self.init(primary: major, secondary: minor)
        } else if !minor.isEmpty {
            self.init(primary: minor)
        } else if !organization.isEmpty {
            self.init(primary: organization)
        } else {
            let middle = Self.normalized(parts.middleNamePhonetic, else: parts.middleName)
            let nickname = Self.normalized(parts.nickname)
            self.init(primary: middle.isEmpty ? nickname : middle)
        }
    }

    /// Whether `lhs` sorts before `rhs`.
    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        if lhs.hasName != rhs.hasName {
            return lhs.hasName
        }
        let primary = compare(lhs.primary, rhs.primary)
        if primary != 0 {
            return primary < 0
        }
        return compare(lhs.secondary, rhs.secondary) < 0
    }

    /// Whether the keys are equal, that is neither sorts before the other.
    static func == (lhs: SortKey, rhs: SortKey) -> Bool {
        lhs.hasName == rhs.hasName
            && compare(lhs.primary, rhs.primary) == 0
            && compare(lhs.secondary, rhs.secondary) == 0
    }

    /// Compares two strings by their UTF-8 bytes, which orders them by Unicode scalar value;
    /// returns a negative number, zero or a positive number.
    private static func compare(_ lhs: String, _ rhs: String) -> Int {
        var left = lhs
        var right = rhs
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                for index in 0..<min(leftBytes.count, rightBytes.count)
                where leftBytes[index] != rightBytes[index] {
                    return Int(leftBytes[index]) - Int(rightBytes[index])
                }
                return leftBytes.count - rightBytes.count
            }
        }
    }

    /// Creates a key from normalized strings; an empty primary string means no name.
    private init(primary: String, secondary: String = "") {
        self.hasName = !primary.isEmpty
        self.primary = primary
        self.secondary = secondary
    }

    /// Returns the normalized `preferred` part, or the normalized `fallback` when that is empty.
    private static func normalized(_ preferred: String?, else fallback: String? = nil) -> String {
        let text = NameNormalizer.normalize(preferred ?? "")
        if !text.isEmpty || fallback == nil {
            return text
        }
        return NameNormalizer.normalize(fallback ?? "")
    }
}
