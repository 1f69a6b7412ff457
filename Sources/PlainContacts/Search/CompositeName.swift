/// Builds the name under which a person or organization is shown.
///
/// The AddressBook equivalent is `ABRecordCopyCompositeName`.
///
/// ```swift
/// let parts = NameParts(prefix: "Dr.", firstName: "Katie", lastName: "Bell")
/// CompositeName.make(parts, format: .firstNameFirst)  // "Dr. Katie Bell"
/// CompositeName.make(parts, format: .lastNameFirst)   // "Dr. Bell Katie"
/// ```
enum CompositeName {
    /// Returns the composite name of `parts`, or `nil` when the record has no name at all.
    ///
    /// The rules, in order:
    /// 1. An organization-kind record with a non-empty organization name is shown by it.
    /// 2. The name parts are the prefix, first, middle, last name and suffix. Each is trimmed
    ///    of white space at both ends; empty parts are skipped.
    /// 3. When the first, middle and last names that are present are written in Chinese,
    ///    Japanese or Korean script (every scalar that is not white space is Han, Hiragana,
    ///    Katakana or Hangul, or a mark written with them; see ``CJKScript/isCJK(_:)``), they
    ///    are written last name first whatever `format` says, in the order last, first,
    ///    middle, with no delimiter: "山田太郎", "송성광". If they are all Katakana, they are
    ///    joined with "・" instead: "スミス・ジョン". A prefix and a suffix keep their own
    ///    words and are set apart by one space, as AddressBook does: "Dr. 山田太郎 Jr.".
    /// 4. Otherwise the parts are joined with one space, as prefix, first, middle, last, suffix
    ///    for ``CompositeNameFormat/firstNameFirst`` or prefix, last, first, middle, suffix for
    ///    ``CompositeNameFormat/lastNameFirst``.
    /// 5. With no name parts at all, the organization name is used, then the nickname;
    ///    with neither, the result is `nil`.
    static func make(_ parts: NameParts, format: CompositeNameFormat) -> String? {
        let organization = trimmed(parts.organization)
        if parts.isOrganization, let organization {
            return organization
        }
        let prefix = trimmed(parts.prefix)
        let first = trimmed(parts.firstName)
        let middle = trimmed(parts.middleName)
        let last = trimmed(parts.lastName)
        let suffix = trimmed(parts.suffix)
        if prefix == nil, first == nil, middle == nil, last == nil, suffix == nil {
            return organization ?? trimmed(parts.nickname)
        }
        let core = [last, first, middle].compactMap { $0 }
        if !core.isEmpty, core.allSatisfy({ CJKScript.isWritten($0, in: CJKScript.isCJK) }) {
            let isKatakana = core.allSatisfy { CJKScript.isWritten($0, in: CJKScript.isKatakana) }
            let name = core.joined(separator: isKatakana ? "・" : "")
            return [prefix, name, suffix].compactMap { $0 }.joined(separator: " ")
        }
        let ordered: [String?] =
            switch format {
            case .firstNameFirst: [prefix, first, middle, last, suffix]
            case .lastNameFirst: [prefix, last, first, middle, suffix]
            }
        return ordered.compactMap { $0 }.joined(separator: " ")
    }

    /// Returns `part` without white space at both ends, or `nil` when nothing is left.
    private static func trimmed(_ part: String?) -> String? {
        guard let part else { return nil }
        let scalars = part.unicodeScalars
        guard let start = scalars.firstIndex(where: { !NameNormalizer.isWhiteSpace($0) }),
            let end = scalars.lastIndex(where: { !NameNormalizer.isWhiteSpace($0) })
        else { return nil }
        return String(scalars[start...end])
    }
}
