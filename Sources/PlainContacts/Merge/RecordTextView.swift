import FoundationEssentials
import PlainContactsSystem

/// A store file as a readable card, for `git diff` and `git log -p` (Git's `textconv`): a
/// diff then says `job title: Pilot` instead of showing JSON.
///
/// A person file becomes its composite name as a heading, then one `label: value` line per
/// property in ``PropertyID/personProperties`` order, labelled with its
/// ``PropertyID/localizedName``, one line per multi-value entry
/// (`phone (mobile): 555-0100`), then the image, merged keys and unknown keys
/// (`key: <json>`). A group file becomes `Group: <name>` and its details; a membership file
/// its member keys; the manifest its settings. Text that cannot be read (such as a file with
/// conflict markers) comes back unchanged, so that the conversion never fails.
///
/// ```swift
/// print(RecordTextView.render(data, path: "people/katie-bell-9dw42k.json"))
/// // Katie Bell
/// // id: 1
/// // first name: Katie
/// // last name: Bell
/// // phone (mobile): 555-555-1234
/// ```
package enum RecordTextView {
    /// The readable text of the store file at `path` holding `data`.
    package static func render(_ data: Data, path: String) -> String {
        let raw = String(decoding: data, as: UTF8.self)
        let lines: [String]?
        switch RecordFileKind.detect(data, path: path) {
        case .person: lines = personLines(data, path: path)
        case .group: lines = groupLines(data, path: path)
        case .members: lines = (try? MembershipFile.decode(data, path: path)).map { $0.sorted().map(\.rawValue) }
        case .manifest: lines = manifestLines(data, path: path)
        }
        guard let lines else { return raw }
        return lines.map { $0 + "\n" }.joined()
    }

    private static func personLines(_ data: Data, path: String) -> [String]? {
        guard let decoded = try? PersonRecordCoder.decode(data, path: path) else { return nil }
        let state = decoded.state
        var lines = [CompositeName.make(state.nameParts, format: .firstNameFirst) ?? "(no name)"]
        lines.append("id: \(decoded.id)")
        for property in PropertyID.personProperties {
            guard let value = state.values[property] else { continue }
            lines += valueLines(value, name: property.localizedName)
        }
        if case .stored(let fileName) = state.image { lines.append("image: \(fileName)") }
        if !state.mergedKeys.isEmpty { lines.append("merged: \(state.mergedKeys.sorted().joined(separator: ", "))") }
        lines += unknownLines(state.unknownFields, indent: "")
        return lines
    }

    private static func groupLines(_ data: Data, path: String) -> [String]? {
        guard let (id, state) = try? GroupRecordCoder.decode(data, path: path) else { return nil }
        var lines = ["Group: \(state.name ?? "(no name)")", "id: \(id)"]
        if let date = state.creationDate { lines.append("created: \(Timestamp.format(date))") }
        if let date = state.modificationDate { lines.append("modified: \(Timestamp.format(date))") }
        return lines + unknownLines(state.unknownFields, indent: "")
    }

    private static func manifestLines(_ data: Data, path: String) -> [String]? {
        guard let manifest = try? Manifest(data: data, path: path) else { return nil }
        return [
            "Store settings",
            "format: \(manifest.format)",
            "sort ordering: \(manifest.sortOrdering.rawValue)",
            "composite name format: \(manifest.compositeNameFormat.rawValue)",
        ] + unknownLines(manifest.unknownFields, indent: "")
    }

    private static func valueLines(_ value: PropertyValue, name: String) -> [String] {
        switch value {
        case .string(let text): [line(name, text)]
        case .timestamp(let date): [line(name, Timestamp.format(date))]
        case .date(let date): [line(name, date.description)]
        case .kind(let kind): [line(name, kind.rawValue)]
        case .multiString(let values): entryLines(values, name: name) { $0 }
        case .multiDate(let values): entryLines(values, name: name) { $0.description }
        case .multiAddress(let values): entryLines(values, name: name, address)
        case .multiInstantMessage(let values): entryLines(values, name: name, instantMessage)
        case .multiSocialProfile(let values): entryLines(values, name: name, socialProfile)
        }
    }

    private static func entryLines<Value>(_ values: MultiValue<Value>, name: String, _ text: (Value) -> String) -> [String] {
        values.entries.flatMap { entry in
            let title = entry.label.map { "\(name) (\($0.localizedName))" } ?? name
            return [line(title, text(entry.value))] + unknownLines(entry.unknownFields, indent: "  ")
        }
    }

    /// `name: value`, with the continuation lines of a multi-line value indented.
    private static func line(_ name: String, _ value: String) -> String {
        "\(name): " + value.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
    }

    static func address(_ address: PostalAddress) -> String {
        let street = [address.poBox, address.extendedAddress].compactMap { $0 }
            + (address.street ?? "").split(separator: "\n").map(String.init)
        let region = [address.state, address.zip].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        let parts = street + [address.city ?? "", region, address.country ?? address.countryCode ?? ""]
        return parts.filter { !$0.isEmpty }.joined(separator: ", ") + extras(address.unknownFields)
    }

    static func instantMessage(_ account: InstantMessage) -> String {
        let text = [account.service.map { $0 + ":" }, account.username].compactMap { $0 }.joined(separator: " ")
        return text + extras(account.unknownFields)
    }

    static func socialProfile(_ profile: SocialProfile) -> String {
        let parts = [profile.service.map { $0 + ":" }, profile.username, profile.url, profile.identifier.map { "(\($0))" }]
        return parts.compactMap { $0 }.joined(separator: " ") + extras(profile.unknownFields)
    }

    /// Unknown keys inside an address, account or profile, appended as compact JSON.
    private static func extras(_ fields: [String: JSONValue]) -> String {
        fields.isEmpty ? "" : " " + CanonicalJSON.compact(.object(fields))
    }

    private static func unknownLines(_ fields: [String: JSONValue], indent: String) -> [String] {
        fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { key in
            fields[key].map { "\(indent)\(key): \(CanonicalJSON.compact($0))" }
        }
    }
}
