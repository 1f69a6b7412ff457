import FoundationEssentials
import PlainContactsSystem

/// The vCard data a person record keeps beside its properties, under two keys of the record's
/// JSON file:
///
/// - `"uid"`: the card's `UID` as written, a string. Importing a card with the same UID again
///   updates this person instead of adding a duplicate, and export writes it back.
/// - `"vcard"`: the card's properties that have no place in the model (`ROLE`, `X-SIP`,
///   `GEO`, an `X-ABLabel` of an unmapped item…), an array of strings, each one unfolded
///   content line as written (`"item1.X-Unknown:TestValue"`). Export writes them back verbatim.
///
/// ```json
/// "uid": "d69c71e5-4a6f-4b9b-97fc-4f9f5770c907",
/// "vcard": ["ROLE:Programmer", "X-SIP:mysip@example.com"]
/// ```
///
/// A group created from a group card keeps the card's UID under the same `"uid"` key of the
/// group record, and the fields an import of another format kept for it
/// (`X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME="description":Monthly readers`) under `"vcard"`.
package enum VCardRecordFields {
    /// The record key holding the card's UID.
    static let uidKey = "uid"
    /// The record key holding the unmapped content lines.
    static let linesKey = "vcard"

    /// The stored UID, if any.
    static func uid(of state: PersonState) -> String? {
        guard case .string(let uid)? = state.unknownFields[uidKey], !uid.isEmpty else { return nil }
        return uid
    }

    /// Stores a UID; `nil` or empty text removes it.
    static func setUID(_ uid: String?, in state: inout PersonState) {
        if let uid, !uid.isEmpty {
            state.unknownFields[uidKey] = .string(uid)
        } else {
            state.unknownFields[uidKey] = nil
        }
    }

    /// The stored content lines in order; entries that are not strings are ignored.
    package static func lines(of state: PersonState) -> [String] {
        guard case .array(let items)? = state.unknownFields[linesKey] else { return [] }
        return items.compactMap(\.string)
    }

    /// A group's stored content lines in order: the lines of its card the store has no place
    /// for, such as the `X-IMPORTED-FIELD` lines an import keeps.
    package static func lines(of state: GroupState) -> [String] {
        guard case .array(let items)? = state.unknownFields[linesKey] else { return [] }
        return items.compactMap(\.string)
    }

    /// Stores content lines; an empty list removes the key.
    static func setLines(_ lines: [String], in state: inout PersonState) {
        state.unknownFields[linesKey] = lines.isEmpty ? nil : .array(lines.map(JSONValue.string))
    }

    /// The form of a UID used to compare UIDs: without a leading `urn:uuid:` (any case), so that
    /// `urn:uuid:1234…` and `1234…` name the same card.
    static func matchKey(_ uid: String) -> String {
        let prefix = "urn:uuid:"
        if uid.utf8.count > prefix.utf8.count, uid.lowercased().hasPrefix(prefix) {
            return String(uid.dropFirst(prefix.count))
        }
        return uid
    }

    /// Whether `uid` is the one ``derivedUID(for:)`` gives `key`: a UID the record need not
    /// store, since export writes it anyway.
    static func isDerived(_ uid: String, for key: RecordKey) -> Bool {
        matchKey(uid) == derivedUID(for: key)
    }

    /// Removes a stored UID that is the one derived from `key`.
    static func removeDerivedUID(from state: inout PersonState, key: RecordKey) {
        if let uid = uid(of: state), isDerived(uid, for: key) { setUID(nil, in: &state) }
    }

    /// Removes a stored group UID that is the one derived from `key`.
    static func removeDerivedUID(from state: inout GroupState, key: RecordKey) {
        if case .string(let uid)? = state.unknownFields[uidKey], isDerived(uid, for: key) { state.unknownFields[uidKey] = nil }
    }

    /// A UUID-formed identifier derived from a record key: the first 16 bytes of the SHA-256
    /// digest of the key's UTF-8 text, with the version bits set to 8 (RFC 9562, custom) and
    /// the RFC 4122 variant, written as lowercase 8-4-4-4-12 hexadecimal digits.
    ///
    /// The same key gives the same identifier on every machine, so exporting a person without a
    /// stored UID twice gives the same `UID`.
    static func derivedUID(for key: RecordKey) -> String {
        var bytes = Array(SHA256.hash(key.rawValue.utf8).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = SHA256.hexString(bytes)
        let utf8 = Array(hex.utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(UInt8(ascii: "-")) }
            text.append(byte)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
