import Foundation
import PlainContacts

/// Whether a value of an export is found again in an imported person, in the property its
/// kind names, and whether the value found carries the type the export gave it.
///
/// Values compare without regard to case and runs of white space; URLs also without their
/// scheme and a final `/`. A value found anywhere else (in the note, as a kept field) counts
/// only for ``FieldKind/other``, for a date that is no date, and for a part of a date the
/// store cannot hold alone (a birth year without a day).
///
/// ```swift
/// let result = FieldMatcher.match(field, in: view)
/// result.found       // the value is there
/// result.labelKept   // and carries the export's type
/// ```
enum FieldMatcher {
    /// What the lookup found.
    struct Result: Equatable {
        /// Whether the value is there.
        var found: Bool
        /// Whether a value found carries the expected label; `false` when none was expected.
        var labelKept: Bool

        /// Neither the value nor its label.
        static let lost = Result(found: false, labelKept: false)
    }

    /// Looks `field` up in `view`.
    static func match(_ field: SourceField, in view: ImportedPersonView) -> Result {
        let value = key(field.value)
        let label = field.label
        switch field.kind {
        case .givenName: return single(value, view.givenName)
        case .middleName: return single(value, view.middleName)
        case .familyName: return single(value, view.familyName)
        case .namePrefix: return single(value, view.namePrefix)
        case .nameSuffix: return single(value, view.nameSuffix)
        case .nickname: return single(value, view.nickname)
        case .organization: return single(value, view.organization)
        case .department: return single(value, view.department)
        case .jobTitle: return single(value, view.jobTitle)
        case .displayName: return displayName(field.value, in: view)
        case .phoneticName:
            let words = Set(Self.words(view.phoneticNames.joined(separator: " ")))
            return found(view.phoneticNames.map(key).contains(value) || Self.words(field.value).allSatisfy(words.contains))
        case .note: return found(view.note.map { key($0).contains(value) } ?? false)
        case .email, .phone, .relatedName:
            let entries = field.kind == .email ? view.emails : field.kind == .phone ? view.phones : view.relatedNames
            return labelled(entries.filter { key($0.text) == value }.map(\.label), label)
        case .url:
            return labelled(view.urls.filter { url($0.text) == url(field.value) }.map(\.label), label)
        case .instantMessage:
            let accounts = view.accounts.filter { key($0.user) == value || url($0.user) == url(field.value) }
            return labelled(accounts.flatMap { [$0.service, $0.label] }, label, any: !accounts.isEmpty)
        case .address(let part):
            let labels = view.addresses.filter { contains(part, value: field.value, $0.address) }.map(\.label)
            return labelled(labels, label)
        case .birthday:
            let date = SourceDate(field.value)
            guard date.isDate else { return anywhere(value, in: view) }
            return found(view.birthday.map(date.matches) ?? false)
        case .birthdayPart(let part):
            if let birthday = view.birthday { return found(SourceDate(field.value).matches(birthday, part: part)) }
            return anywhere(value, in: view)
        case .date:
            let date = SourceDate(field.value)
            guard date.isDate else { return anywhere(value, in: view) }
            return labelled(view.dates.filter { date.matches($0.date) }.map(\.label), label)
        case .group, .groupName: return found(view.groups.map(key).contains(value))
        case .member, .other:
            var result = anywhere(value, in: view)
            result.labelKept = label.map { label in view.kept.contains { key($0.value) == value && label.accepts($0.name) } } ?? false
            return result
        }
    }

    /// The form values compare in: lowercased, white space runs as one space, trimmed.
    static func key(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words of a name or an address, lowercased, without punctuation.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// A result without a label kept.
    private static func found(_ found: Bool) -> Result {
        Result(found: found, labelKept: false)
    }

    /// Found when the property of one value holds it.
    private static func single(_ value: String, _ stored: String?) -> Result {
        found(stored.map(key) == value)
    }

    /// Found when `labels` (one per value found) is not empty, or `any` says so; the label is
    /// kept when one of them is accepted.
    private static func labelled(_ labels: [String?], _ expected: ExpectedLabel?, any: Bool? = nil) -> Result {
        Result(found: any ?? !labels.isEmpty, labelKept: expected.map { expected in labels.contains(where: expected.accepts) } ?? false)
    }

    /// The form URLs compare in: ``key(_:)`` without `http://` or `https://` and a final `/`.
    private static func url(_ text: String) -> String {
        var url = key(text)
        for scheme in ["http://", "https://"] where url.hasPrefix(scheme) { url.removeFirst(scheme.count) }
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// A whole name: the name shown or composed, or every word of it among the name's parts.
    private static func displayName(_ text: String, in view: ImportedPersonView) -> Result {
        let value = key(text)
        if [view.formattedName, view.compositeName].compactMap({ $0 }).map(key).contains(value) { return found(true) }
        let parts = [view.namePrefix, view.givenName, view.middleName, view.familyName, view.nameSuffix].compactMap { $0 }
        let stored = Set(parts.flatMap(words))
        let wanted = words(text)
        return found(!wanted.isEmpty && wanted.allSatisfy(stored.contains))
    }

    /// Whether `address` holds `value` as its part `part`.
    private static func contains(_ part: FieldKind.AddressPart, value: String, _ address: PostalAddress) -> Bool {
        let wanted = key(value)
        switch part {
        case .street:
            let lines = [address.street, address.extendedAddress, address.poBox].compactMap { $0 }
                .flatMap { $0.split(separator: "\n").map { key(String($0)) } }
            return lines.contains(wanted)
        case .city: return address.city.map(key) == wanted
        case .region: return address.state.map(key) == wanted
        case .postcode: return address.zip.map(key) == wanted
        case .country: return [address.country, address.countryCode].compactMap { $0 }.map(key).contains(wanted)
        case .formatted:
            let stored = Set(
                [address.poBox, address.extendedAddress, address.street, address.city, address.state, address.zip, address.country]
                    .compactMap { $0 }.flatMap(words))
            let wantedWords = words(value)
            return !wantedWords.isEmpty && wantedWords.allSatisfy(stored.contains)
        }
    }

    /// Found as any value of the person, or in the note.
    private static func anywhere(_ value: String, in view: ImportedPersonView) -> Result {
        found(view.allValues.map(key).contains(value) || (view.note.map { key($0).contains(value) } ?? false))
    }
}
