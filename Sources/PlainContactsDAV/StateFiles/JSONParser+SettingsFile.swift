#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

extension JSONParser {
    /// The top-level object of a device-local settings file (`remotes.json`, `users.json`):
    /// every reading error is ``ContactsError/Code/malformedFile`` naming the file, with
    /// `repairHint` appended to say how to repair it.
    ///
    /// ```swift
    /// var fields = try JSONParser.settingsObject(data, path: path, kind: "the users file", repairHint: hint)
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` when the bytes are not JSON or not an object.
    static func settingsObject(
        _ data: Data, path: String, kind: String, repairHint: String
    ) throws(ContactsError) -> [String: JSONValue] {
        let document: JSONValue
        do {
            document = try parse(data, path: path)
        } catch {
            var malformed = error
            malformed.code = .malformedFile
            malformed.message += repairHint
            throw malformed
        }
        guard let fields = document.object else {
            throw ContactsError(.malformedFile, "\(kind) must be a JSON object" + repairHint, path: path)
        }
        return fields
    }
}
