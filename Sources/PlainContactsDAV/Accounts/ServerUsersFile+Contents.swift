import FoundationEssentials
import PlainContacts
import PlainContactsSystem

extension ServerUsersFile {
    /// What `users.json` holds: each account's password hash and, when it has a list, its
    /// books in the order its home lists them; and the folder of every book other than the
    /// store the file is in.
    ///
    /// ```json
    /// {
    ///   "books": {
    ///     "family": "/home/kim/contacts/family"
    ///   },
    ///   "users": {
    ///     "kim": {
    ///       "books": [
    ///         {"access": "read-write", "book": "contacts"},
    ///         {"access": "read-write", "book": "family"}
    ///       ],
    ///       "passwordHash": "pbkdf2-sha256$200000$3q2+7wAAAAAAAAAAAAAAAA==$…"
    ///     },
    ///     "tablet": {
    ///       "books": [{"access": "read", "book": "family"}],
    ///       "passwordHash": "…"
    ///     }
    ///   }
    /// }
    /// ```
    ///
    /// A user without `"books"` has the store the file is in, read and written
    /// (``ServerGrant/standard``), as every user had before books.
    ///
    /// Hashes are kept as text here and parsed by ``ServerUsersFile/accounts()``, so that an
    /// account with a damaged hash can still be replaced or removed. Keys this version does not
    /// know, at the top and in each account, are kept when the file is rewritten.
    struct Contents: Sendable, Equatable, DeviceSettingsContents {
        /// One account as the file holds it.
        struct User: Sendable, Equatable {
            /// The ``PasswordHash/text`` of the password's hash.
            var passwordHash = ""
            /// The books, in order; `nil` for ``ServerGrant/standard``.
            var books: [ServerGrant]?
            /// The account's keys other than `"passwordHash"` and `"books"`.
            var unknownFields: [String: JSONValue] = [:]
        }

        /// Every account, by name.
        var users: [ServerUserName: User] = [:]
        /// The folder of each book other than ``ServedBookName/home``, as an absolute path.
        var books: [ServedBookName: String] = [:]
        /// Top-level keys other than `"users"` and `"books"`.
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
            if let value = fields.removeValue(forKey: "books") {
                guard let entries = value.object else {
                    throw Contents.malformed("\"books\" must be an object of folders by book name", path: path)
                }
                for (key, entry) in entries {
                    let name: ServedBookName
                    do {
                        name = try ServedBookName(key)
                    } catch {
                        throw Contents.malformed("a book's name is not valid: \(error.message)", path: path)
                    }
                    guard let folder = entry.string, folder.hasPrefix("/"), name != .home else {
                        throw Contents.malformed("book \"\(key)\" must name its store's folder by an absolute path", path: path)
                    }
                    books[name] = folder
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
                if let books = user.books {
                    userFields["books"] = .array(books.map { grant in
                        .object(["book": .string(grant.book.rawValue), "access": .string(grant.access.rawValue)])
                    })
                }
                entries[name.rawValue] = .object(userFields)
            }
            fields["users"] = .object(entries)
            if !books.isEmpty {
                fields["books"] = .object(Dictionary(uniqueKeysWithValues: books.map { ($0.key.rawValue, JSONValue.string($0.value)) }))
            }
            return CanonicalJSON.encode(.object(fields))
        }

        /// Whether the file would hold nothing at all.
        var isEmpty: Bool { users.isEmpty && books.isEmpty && unknownFields.isEmpty }

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
            var books: [ServerGrant]?
            if let value = fields.removeValue(forKey: "books") {
                guard let entries = value.array else {
                    throw malformed("the books of user \"\(name)\" must be a list", path: path)
                }
                books = try entries.map { entry throws(ContactsError) in try grant(of: name, from: entry, path: path) }
            }
            return User(passwordHash: hash, books: books, unknownFields: fields)
        }

        /// Reads one book of an account's list.
        private static func grant(of user: ServerUserName, from entry: JSONValue, path: String) throws(ContactsError)
            -> ServerGrant
        {
            guard let fields = entry.object, let book = fields["book"]?.string,
                let access = fields["access"]?.string.flatMap(ServerGrant.Access.init(rawValue:))
            else {
                throw malformed(
                    "each book of user \"\(user)\" needs a \"book\" name and an \"access\" of \"read\" or \"read-write\"", path: path)
            }
            do {
                return ServerGrant(book: try ServedBookName(book), access: access)
            } catch {
                throw malformed("user \"\(user)\" has a book whose name is not valid: \(error.message)", path: path)
            }
        }

        /// A ``ContactsError/Code/malformedFile`` error with the repair hint.
        private static func malformed(_ message: String, path: String) -> ContactsError {
            ContactsError(.malformedFile, message + repairHint, path: path)
        }
    }
}
