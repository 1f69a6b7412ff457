import FoundationEssentials

/// What changed between two versions of a person record, in words: what `contacts log` and
/// the history page of `contacts serve` say of each commit.
///
/// Each line names the property (its ``PropertyID/localizedName``), the label of a multi-value
/// entry, and the values before and after: the name as the composite name, a multi-value entry
/// followed by its identifier so that an edited phone reads as one change, not a removal and an
/// addition. Values longer than ``longestValue`` characters are cut; line breaks read as ` / `.
///
/// ```swift
/// PersonChangeWords.lines(from: before, to: after, path: "people/katie-bell-9dw42k.json")
/// // ["name Katie Bell → Katie Bell-Smith",
/// //  "phone mobile +1 555 0100 → +1 555 0199",
/// //  "email home added a@b.c"]
/// ```
package enum PersonChangeWords {
    /// The most characters of a value a line shows.
    static let longestValue = 80

    /// The changes from the file bytes `before` to `after` (either `nil`: the file did not exist),
    /// at `path`: `created` then the values of a new record, `removed NAME` for a removed one,
    /// one line per change otherwise. A version that cannot be read gives
    /// `the file cannot be read`.
    package static func lines(
        from before: Data?, to after: Data?, path: String, format: CompositeNameFormat = .firstNameFirst
    ) -> [String] {
        func state(_ data: Data?) -> PersonState?? {
            guard let data else { return .some(nil) }
            guard let decoded = try? PersonRecordCoder.decode(data, path: path) else { return nil }
            return .some(decoded.state)
        }
        guard let old = state(before), let new = state(after) else { return ["the file cannot be read"] }
        return lines(from: old, to: new, format: format)
    }

    /// The changes from the person `before` to `after` (`nil`: no record).
    static func lines(from before: PersonState?, to after: PersonState?, format: CompositeNameFormat) -> [String] {
        switch (before, after) {
        case (nil, nil): return []
        case (let old?, nil): return ["removed " + (CompositeName.make(old.nameParts, format: format) ?? "(no name)")]
        case (nil, let new?): return ["created"] + changes(from: PersonState(), to: new, format: format)
        case (let old?, let new?): return changes(from: old, to: new, format: format)
        }
    }

    /// The properties the heading's name is made of, said together as `name`.
    private static let nameProperties: Set<PropertyID> = [.prefix, .firstName, .middleName, .lastName, .suffix]

    private static func changes(from old: PersonState, to new: PersonState, format: CompositeNameFormat) -> [String] {
        var lines: [String] = []
        let names = (CompositeName.make(old.nameParts, format: format), CompositeName.make(new.nameParts, format: format))
        if names.0 != names.1 { lines.append(change("name", names.0, names.1)) }
        for property in PropertyID.personProperties where !property.isReadOnly && !nameProperties.contains(property) {
            let before = entries(old.values[property])
            let after = entries(new.values[property])
            guard before != after else { continue }
            lines += entryChanges(property.localizedName, before, after)
        }
        switch (old.image, new.image) {
        case (.none, .none): break
        case (.none, _): lines.append("photo added")
        case (_, .none): lines.append("photo removed")
        case (.stored(let a), .stored(let b)) where a == b: break
        default: lines.append("photo changed")
        }
        if Set(new.mergedKeys).subtracting(old.mergedKeys).count > 0 { lines.append("merged with a duplicate") }
        if old.unknownFields != new.unknownFields { lines.append("other data changed") }
        return lines
    }

    /// One value of a property: a single value has no identifier.
    private struct Entry: Equatable {
        var identifier: Int32?
        var label: String?
        var text: String
    }

    /// A property's value as text: one label (`nil` for none or a single value) and text per
    /// entry, as the lines of ``lines(from:to:format:)`` show them (an address on one line).
    ///
    /// ```swift
    /// PersonChangeWords.texts(of: katie.value(for: .phones))   // [(label: "mobile", text: "+1 555 0100")]
    /// ```
    static func texts(of value: PropertyValue?) -> [(label: String?, text: String)] {
        entries(value).map { ($0.label, $0.text) }
    }

    private static func entries(_ value: PropertyValue?) -> [Entry] {
        func multi<Value>(_ values: MultiValue<Value>, _ text: (Value) -> String) -> [Entry] {
            values.entries.map { Entry(identifier: $0.identifier.rawValue, label: $0.label?.localizedName, text: text($0.value)) }
        }
        switch value {
        case nil: return []
        case .string(let text)?: return text.isEmpty ? [] : [Entry(text: text)]
        case .timestamp(let date)?: return [Entry(text: Timestamp.format(date))]
        case .date(let date)?: return [Entry(text: date.description)]
        case .kind(let kind)?: return kind == .person ? [] : [Entry(text: kind.rawValue)]
        case .multiString(let values)?: return multi(values) { $0 }
        case .multiDate(let values)?: return multi(values) { $0.description }
        case .multiAddress(let values)?: return multi(values, RecordTextView.address)
        case .multiInstantMessage(let values)?: return multi(values, RecordTextView.instantMessage)
        case .multiSocialProfile(let values)?: return multi(values, RecordTextView.socialProfile)
        }
    }

    /// The changes of one property's entries: matched by identifier (a single value matches
    /// itself), then the ones only before (removed) and only after (added), in order.
    private static func entryChanges(_ name: String, _ before: [Entry], _ after: [Entry]) -> [String] {
        var lines: [String] = []
        var matched = Set<Int>()
        for old in before {
            let index = after.firstIndex { $0.identifier == old.identifier }
            guard let index else {
                lines.append(change(titled(name, old.label), old.text, nil))
                continue
            }
            matched.insert(index)
            let new = after[index]
            if old.text != new.text { lines.append(change(titled(name, new.label), old.text, new.text)) }
            if old.label != new.label {
                lines.append("\(name) \(shown(new.text)) label " + "\(old.label ?? "none") → \(new.label ?? "none")")
            }
        }
        for (index, new) in after.enumerated() where !matched.contains(index) {
            lines.append(change(titled(name, new.label), nil, new.text))
        }
        return lines
    }

    private static func titled(_ name: String, _ label: String?) -> String {
        label.map { "\(name) \($0)" } ?? name
    }

    /// `name old → new`, `name added new` or `name removed old`.
    private static func change(_ name: String, _ old: String?, _ new: String?) -> String {
        switch (old, new) {
        case (let old?, let new?): "\(name) \(shown(old)) → \(shown(new))"
        case (nil, let new?): "\(name) added \(shown(new))"
        case (let old?, nil): "\(name) removed \(shown(old))"
        case (nil, nil): name
        }
    }

    /// A value on one line, cut after ``longestValue`` characters.
    private static func shown(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " / ")
        return line.count > longestValue ? line.prefix(longestValue) + "…" : line
    }
}
