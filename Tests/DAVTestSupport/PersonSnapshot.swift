import Foundation
import PlainContacts

/// A person's contents as text lines, to compare people across stores: every property but the
/// store-maintained dates, multi-values as `label=value` without identifiers, the image bytes,
/// the group names, the UID (when asked) and the kept vCard lines except single-valued
/// properties, which export writes from the model.
public enum PersonSnapshot {
    public static func lines(_ person: Person, groupNames: [String] = [], includeUID: Bool = true) throws -> [String] {
        var lines: [String] = []
        for property in PropertyID.personProperties where !property.isReadOnly {
            guard let value = person.value(for: property) else { continue }
            lines.append("\(property.key): \(describe(value))")
        }
        if let image = try person.imageData() { lines.append("image: \(image.base64EncodedString())") }
        lines.append("groups: \(groupNames.sorted().joined(separator: " | "))")
        let kept = person.keptCardFields
        if includeUID { lines.append("uid: \(kept.uid ?? "-")") }
        for line in kept.lines { lines.append("kept: \(line)") }
        return lines
    }

    private static func describe(_ value: PropertyValue) -> String {
        switch value {
        case .string(let text): text
        case .timestamp(let date): "\(date)"
        case .date(let date): date.description
        case .kind(let kind): kind.rawValue
        case .multiString(let values): entries(values)
        case .multiDate(let values): entries(values)
        case .multiAddress(let values): entries(values)
        case .multiInstantMessage(let values): entries(values)
        case .multiSocialProfile(let values): entries(values)
        }
    }

    private static func entries<Value>(_ values: MultiValue<Value>) -> String {
        values.entries.map { "\($0.label?.rawValue ?? "-")=\($0.value)" }.joined(separator: " | ")
    }
}
