import FoundationEssentials
import PlainContacts
import PlainContactsSystem

extension RemoteSettingsFile {
    /// What `remotes.json` holds: each remote's settings under its name.
    ///
    /// ```json
    /// {
    ///   "remotes": {
    ///     "fastmail": {
    ///       "passwordCommand": "pass show fastmail",
    ///       "url": "https://carddav.fastmail.com/dav/addressbooks/user/kim@fastmail.com/Default/",
    ///       "user": "kim@fastmail.com"
    ///     }
    ///   }
    /// }
    /// ```
    ///
    /// Missing optional keys read as absent; keys this version does not know, at the top and in
    /// each remote, are kept when the file is rewritten.
    struct Contents: Sendable, Equatable, DeviceSettingsContents {
        /// Every remote, by name.
        var remotes: [RemoteName: RemoteSettings] = [:]
        /// Top-level keys other than `"remotes"`.
        var unknownFields: [String: JSONValue] = [:]

        /// How to repair a file that cannot be read, appended to every reading error.
        static let repairHint =
            "; fix the file by hand, or remove it and add the remotes again with `contacts remote add`"

        init() {}

        /// Parses the file.
        ///
        /// - Throws: ``ContactsError/Code/malformedFile`` naming the file, what is wrong and how
        ///   to repair it, when it is not JSON, not of the expected shape, or names a remote
        ///   badly.
        init(data: Data, path: String) throws(ContactsError) {
            var fields = try JSONParser.settingsObject(data, path: path, kind: "the remotes file", repairHint: Contents.repairHint)
            if let value = fields.removeValue(forKey: "remotes") {
                guard let entries = value.object else {
                    throw Contents.malformed("\"remotes\" must be an object of remotes by name", path: path)
                }
                for (key, entry) in entries {
                    let remote = try Contents.remote(named: key, from: entry, path: path)
                    remotes[remote.name] = remote
                }
            }
            unknownFields = fields
        }

        /// The file's canonical bytes.
        var data: Data {
            var fields = unknownFields
            fields["remotes"] = .object(
                Dictionary(uniqueKeysWithValues: remotes.values.map { ($0.name.rawValue, Contents.entry(of: $0)) }))
            return CanonicalJSON.encode(.object(fields))
        }

        /// Whether the file would hold nothing at all.
        var isEmpty: Bool { remotes.isEmpty && unknownFields.isEmpty }

        private static func remote(named key: String, from entry: JSONValue, path: String) throws(ContactsError)
            -> RemoteSettings
        {
            guard let name = try? RemoteName(key) else {
                throw malformed("a remote's name is not valid (letters, digits, '.', '_' or '-', at most 64)", path: path)
            }
            guard var fields = entry.object else {
                throw malformed("remote \"\(name)\" must be an object", path: path)
            }
            guard let text = fields.removeValue(forKey: "url")?.string else {
                throw malformed("remote \"\(name)\" needs a \"url\" string", path: path)
            }
            let url: URL
            do {
                url = try RemoteSettings.collectionURL(from: text)
            } catch {
                throw malformed("remote \"\(name)\": \(error.message)", path: path)
            }
            let user = try optionalString("user", of: name, in: &fields, path: path)
            let command = try optionalString("passwordCommand", of: name, in: &fields, path: path)
            var remote = RemoteSettings(name: name, url: url, user: user, passwordCommand: command)
            remote.unknownFields = fields
            return remote
        }

        /// Removes and returns a string field; `null` or a missing key is `nil`.
        private static func optionalString(
            _ key: String, of name: RemoteName, in fields: inout [String: JSONValue], path: String
        ) throws(ContactsError) -> String? {
            guard let value = fields.removeValue(forKey: key), !value.isNull else { return nil }
            guard let string = value.string else {
                throw malformed("remote \"\(name)\": \"\(key)\" must be a string", path: path)
            }
            return string
        }

        private static func entry(of remote: RemoteSettings) -> JSONValue {
            var fields = remote.unknownFields
            fields["url"] = .string(remote.url.absoluteString)
            if let user = remote.user { fields["user"] = .string(user) }
            if let command = remote.passwordCommand { fields["passwordCommand"] = .string(command) }
            return .object(fields)
        }

        private static func malformed(_ message: String, path: String) -> ContactsError {
            ContactsError(.malformedFile, message + repairHint, path: path)
        }
    }
}
