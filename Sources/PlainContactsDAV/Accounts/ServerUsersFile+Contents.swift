import FoundationEssentials
import PlainContacts

extension ServerUsersFile {
    /// What `users.json` holds: each account's password hash under its name.
    ///
    /// ```json
    /// {
    ///   "users": {
    ///     "kim": {
    ///       "passwordHash": "pbkdf2-sha256$200000$3q2+7wAAAAAAAAAAAAAAAA==$…"
    ///     }
    ///   }
    /// }
    /// ```
    ///
    /// Hashes are kept as text here and parsed by ``ServerUsersFile/accounts()``, so that an
    /// account with a damaged hash can still be replaced or removed. Keys this version does not
    /// know, at the top and in each account, are kept when the file is rewritten.
    struct Contents: Sendable, Equatable, DeviceSettingsContents {
        /// One account as the file holds it.
        struct User: Sendable, Equatable {
            /// The ``PasswordHash/text`` of the password's hash.
            var passwordHash = ""
            /// The account's keys other than `"passwordHash"`.
            var unknownFields: [String: JSONValue] = [:]
        }

        /// Every account, by name.
        var users: [ServerUserName: User] = [:]
        /// Top-level keys other than `"users"`.
        var unknownFields: [String: JSONValue] = [:]

        /// How to repair a file that cannot be read, appended to every reading error.
        static let repairHint =
            "; fix the file by hand, or remove it and add the users again with `contacts user add`"

        /// No accounts.
        init() {}

        /// Parses the file.
        ///
        /// - Throws: ``ContactsError/Code/malformedFile`` naming the file, what is wrong and how
        ///   to repair it, when it is not JSON, not of the expected shape, or names a user badly.
        init(data: Data, path: String) throws(ContactsError) {
            var fields = try JSONParser.settingsObject(data, path: path, kind: "the users file", repairHint: Contents.repairHint)
            if let value = fields.removeValue(forKey: "users") {
                guard let entries = value.object else {
                    throw Contents.malformed("\"users\" must be an object of users by name", path: path)
                }
                for (key, entry) in entries {
                    let name: ServerUserName
                    do {
                        name = try ServerUserName(key)
                    } catch {
                        throw Contents.malformed("a user's name is not valid: \(error.message)", path: path)
                    }
                    users[name] = try Contents.user(named: name, from: entry, path: path)
                }
            }
            unknownFields = fields
        }

        /// The file's canonical bytes.
        var data: Data {
            var fields = unknownFields
            var entries: [String: JSONValue] = [:]
            for (name, user) in users {
                var userFields = user.unknownFields
                userFields["passwordHash"] = .string(user.passwordHash)
                entries[name.rawValue] = .object(userFields)
            }
            fields["users"] = .object(entries)
            return CanonicalJSON.encode(.object(fields))
        }

        /// Whether the file would hold nothing at all.
        var isEmpty: Bool { users.isEmpty && unknownFields.isEmpty }

        /// Reads one account's object.
        private static func user(named name: ServerUserName, from entry: JSONValue, path: String) throws(ContactsError)
            -> User
        {
            guard var fields = entry.object else {
                throw malformed("user \"\(name)\" must be an object", path: path)
            }
            guard let hash = fields.removeValue(forKey: "passwordHash")?.string else {
                throw malformed("user \"\(name)\" needs a \"passwordHash\" string", path: path)
            }
            return User(passwordHash: hash, unknownFields: fields)
        }

        /// A ``ContactsError/Code/malformedFile`` error with the repair hint.
        private static func malformed(_ message: String, path: String) -> ContactsError {
            ContactsError(.malformedFile, message + repairHint, path: path)
        }
    }
}
