import FoundationEssentials
import PlainContactsSystem

/// The store's manifest, `store.json`: the format version and the book's settings.
///
/// ```json
/// {
///   "compositeNameFormat": "firstNameFirst",
///   "format": 1,
///   "sortOrdering": "lastName"
/// }
/// ```
struct Manifest: Sendable, Hashable {
    /// The newest format this version reads and writes.
    static let currentFormat = 1

    var format: Int = Manifest.currentFormat
    var sortOrdering: SortOrdering = .lastName
    var compositeNameFormat: CompositeNameFormat = .firstNameFirst
    var unknownFields: [String: JSONValue] = [:]

    init() {}

    /// Reads a manifest; missing keys take their defaults.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile``, ``ContactsError/Code/conflictMarkers`` or
    ///   ``ContactsError/Code/unsupportedFormatVersion`` for a store written by a newer version.
    init(data: Data, path: String) throws {
        let json = try JSONParser.parse(data, path: path)
        guard case .object(var fields) = json else {
            throw ContactsError(.malformedFile, "the manifest must be a JSON object", path: path)
        }
        if let value = fields.removeValue(forKey: "format") {
            guard let format = value.int, format >= 1 else {
                throw ContactsError(.malformedFile, "\"format\" must be a positive whole number", path: path)
            }
            guard format <= Manifest.currentFormat else {
                throw ContactsError(
                    .unsupportedFormatVersion,
                    "the store uses format \(format), but this version reads up to format \(Manifest.currentFormat); upgrade PlainContacts",
                    path: path)
            }
            self.format = format
        }
        if let value = fields.removeValue(forKey: "sortOrdering") {
            guard let text = value.string, let ordering = SortOrdering(rawValue: text) else {
                throw ContactsError(
                    .malformedFile, "\"sortOrdering\" must be \"firstName\" or \"lastName\"", path: path)
            }
            sortOrdering = ordering
        }
        if let value = fields.removeValue(forKey: "compositeNameFormat") {
            guard let text = value.string, let format = CompositeNameFormat(rawValue: text) else {
                throw ContactsError(
                    .malformedFile, "\"compositeNameFormat\" must be \"firstNameFirst\" or \"lastNameFirst\"",
                    path: path)
            }
            compositeNameFormat = format
        }
        unknownFields = fields
    }

    /// The store's Git settings, read from the manifest of the store at `root`: whether it
    /// commits every change (`"autoCommit": true`) and whether the commits of its server are
    /// pushed to its Git remote (`"autoPush": true`). A missing or unreadable manifest says no
    /// to both.
    static func gitSettings(inStoreAt root: URL) -> (autoCommit: Bool, autoPush: Bool) {
        let manifest = try? StoreReader(layout: StoreLayout(root: root)).readManifest()
        return (manifest?.unknownFields["autoCommit"] == .bool(true), manifest?.unknownFields["autoPush"] == .bool(true))
    }

    /// The manifest's canonical bytes.
    var data: Data {
        var fields = unknownFields
        fields["format"] = .number(JSONNumber(format))
        fields["sortOrdering"] = .string(sortOrdering.rawValue)
        fields["compositeNameFormat"] = .string(compositeNameFormat.rawValue)
        return CanonicalJSON.encode(.object(fields))
    }
}
