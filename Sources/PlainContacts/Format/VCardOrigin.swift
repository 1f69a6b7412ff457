import FoundationEssentials
import PlainContactsSystem

/// The content lines each value of a person came from, kept so that export writes a value that
/// did not change exactly as its card had it: parameters the model does not map (`PREF`,
/// `LANGUAGE`, `X-…`), item-group prefixes and the card's spelling included.
///
/// A person imported from a card records, per value, the card's lines for it and a fingerprint
/// of the value as the model holds it. Exporting to the card's vCard version writes those lines
/// in place of freshly made ones for every value whose fingerprint still matches; a value
/// edited since is written afresh. Stored in the record under `"vcardOrigin"`:
///
/// ```json
/// "vcardOrigin": {
///   "values": {
///     "N": {"lines": ["N:Doe;John;;;"], "of": "8c4a0f3b7d2e6a19"},
///     "phones/0": {"lines": ["item1.TEL;type=CELL;type=pref:+1 555 0100",
///                            "item1.X-ABLabel:_$!<Mobile>!$_"], "of": "0be2d5c39a7f4e61"}
///   },
///   "version": "3.0"
/// }
/// ```
///
/// A value is named by its card property for single values (`N`, `FN`, `ORG`, `NOTE`…) and by
/// the model property and multi-value identifier for the others (`phones/0`).
struct VCardOrigin: Sendable, Hashable {
    /// The lines one value came from.
    struct Source: Sendable, Hashable {
        /// The content lines, unfolded, in the order the card had them.
        var lines: [String]
        /// The fingerprint of the value when it was imported.
        var fingerprint: String
    }

    /// The record key holding the origin.
    static let key = "vcardOrigin"

    /// The vCard version of the card, such as `"3.0"`.
    var version: String
    /// The lines of each value, by value name.
    var sources: [String: Source]

    /// The origin stored in a person's state, if any; a malformed one reads as none.
    init?(of state: PersonState) {
        guard case .object(let fields)? = state.unknownFields[Self.key], let version = fields["version"]?.string,
            case .object(let values)? = fields["values"]
        else { return nil }
        var sources: [String: Source] = [:]
        for (name, value) in values {
            guard case .object(let source) = value, case .array(let lines)? = source["lines"],
                let fingerprint = source["of"]?.string
            else { continue }
            sources[name] = Source(lines: lines.compactMap(\.string), fingerprint: fingerprint)
        }
        self.version = version
        self.sources = sources
    }

    /// An origin with the given lines per value name.
    init(version: String, sources: [String: Source]) {
        self.version = version
        self.sources = sources
    }

    /// Stores the origin in a person's state; an origin without sources removes the key.
    func store(in state: inout PersonState) {
        guard !sources.isEmpty else {
            state.unknownFields[Self.key] = nil
            return
        }
        let values = sources.mapValues { source in
            JSONValue.object(["lines": .array(source.lines.map(JSONValue.string)), "of": .string(source.fingerprint)])
        }
        state.unknownFields[Self.key] = .object(["version": .string(version), "values": .object(values)])
    }

    // MARK: Value names

    /// The name of a multi-value entry: `phones/3`.
    static func name(of property: PropertyID, _ identifier: MultiValueIdentifier) -> String {
        "\(property.key)/\(identifier.rawValue)"
    }

    /// The identifiers of a multi-value property's entries in `state`, in order.
    static func identifiers(of property: PropertyID, in state: PersonState) -> [MultiValueIdentifier] {
        switch state.values[property] {
        case .multiString(let values)?: values.entries.map(\.identifier)
        case .multiDate(let values)?: values.entries.map(\.identifier)
        case .multiAddress(let values)?: values.entries.map(\.identifier)
        case .multiInstantMessage(let values)?: values.entries.map(\.identifier)
        case .multiSocialProfile(let values)?: values.entries.map(\.identifier)
        default: []
        }
    }

    /// The properties a single-valued card property maps to, by its name: the text
    /// properties' (``TextProperty/byVCardProperty``: `N`, `ORG`, `TITLE`, `NOTE`…), the
    /// birthday and the kind.
    private static let singleValues: [String: [PropertyID]] = TextProperty.byVCardProperty.merging(
        ["BDAY": [.birthday], "KIND": [.kind], "X-ABSHOWAS": [.kind]]) { text, _ in text }

    /// Whether values of this name are tracked: single values the model maps (not `UID` or
    /// `PHOTO`) and multi-value entries.
    static func tracks(_ name: String) -> Bool {
        name == "FN" || singleValues[name] != nil || name.contains("/")
    }

    /// The fingerprint of a value as `state` holds it, or `nil` for a name that is not a value
    /// this type tracks (or a multi-value entry that no longer exists).
    static func fingerprint(of name: String, in state: PersonState) -> String? {
        guard let json = json(of: name, in: state) else { return nil }
        return hex(Fingerprint(CanonicalJSON.encode(json)).value)
    }

    private static func json(of name: String, in state: PersonState) -> JSONValue? {
        if name == "FN" {
            let text = state.string(.formattedName) ?? CompositeName.make(state.nameParts, format: .firstNameFirst) ?? ""
            return .string(text)
        }
        if let properties = singleValues[name] {
            var fields: [String: JSONValue] = [:]
            for property in properties {
                fields[property.key] = state.values[property].map { FieldWriter.json($0, keepingUnknownFields: false) }
            }
            return .object(fields)
        }
        guard let slash = name.firstIndex(of: "/"), let property = PropertyID.person(key: String(name[..<slash])),
            let raw = Int32(name[name.index(after: slash)...]),
            case .array(let entries)? = state.values[property].map({ FieldWriter.json($0, keepingUnknownFields: false) })
        else { return nil }
        return entries.first { $0["id"]?.number.flatMap { Int32($0.description) } == raw }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
