import FoundationEssentials
import PlainContactsSystem

/// The recorded decisions, as kept in `<store>/.contacts/access.json`.
///
/// ```json
/// {
///   "clients": {
///     "com.example.backup": "denied",
///     "com.example.mailer": "authorized"
///   }
/// }
/// ```
///
/// Only decided clients appear; a client without an entry is not determined. Keys and values
/// this version does not know are kept when the file is rewritten.
struct AccessConsentFile: Sendable, Equatable {
    /// Each client's recorded value, normally an ``AuthorizationStatus`` raw value.
    var clients: [String: JSONValue] = [:]
    /// Top-level keys other than `"clients"`.
    var unknownFields: [String: JSONValue] = [:]

    /// The name of the file inside the store's private folder.
    static let fileName = "access.json"

    init() {}

    /// Parses the file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` if it is not a JSON object whose
    ///   `"clients"` is an object, or ``ContactsError/Code/conflictMarkers``.
    init(data: Data, path: String) throws {
        guard case .object(var fields) = try JSONParser.parse(data, path: path) else {
            throw ContactsError(.malformedFile, "the access consent file must be a JSON object", path: path)
        }
        if let value = fields.removeValue(forKey: "clients") {
            guard let clients = value.object else {
                throw ContactsError(.malformedFile, "\"clients\" must be an object of statuses", path: path)
            }
            self.clients = clients
        }
        unknownFields = fields
    }

    /// The file's canonical bytes.
    var data: Data {
        var fields = unknownFields
        fields["clients"] = .object(clients)
        return CanonicalJSON.encode(.object(fields))
    }

    /// Whether the file would hold nothing at all.
    var isEmpty: Bool { clients.isEmpty && unknownFields.isEmpty }

    /// The recorded status of `client`; ``AuthorizationStatus/notDetermined`` if there is no
    /// entry or its value is not a status this version knows.
    func status(of client: String) -> AuthorizationStatus {
        clients[client]?.string.flatMap(AuthorizationStatus.init(rawValue:)) ?? .notDetermined
    }

    /// Records `status` for `client`; ``AuthorizationStatus/notDetermined`` removes the entry.
    mutating func record(_ status: AuthorizationStatus, for client: String) {
        if status == .notDetermined {
            clients.removeValue(forKey: client)
        } else {
            clients[client] = .string(status.rawValue)
        }
    }
}
