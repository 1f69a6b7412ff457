import FoundationEssentials
import PlainContactsSystem

/// The administrator's restrictions, read from `<store>/.contacts/policy.json`.
///
/// ```json
/// {
///   "restricted": false,
///   "restrictedClients": ["com.example.tracker"]
/// }
/// ```
///
/// `"restricted": true` restricts every client but the store owner's; `"restrictedClients"`
/// restricts the clients it names. Other keys are ignored. A policy file that exists but cannot
/// be read, or does not have this shape, restricts every client: a broken restriction must not
/// turn into a grant.
struct AccessPolicy: Sendable, Equatable {
    /// Whether every client is restricted.
    var restrictsEveryClient = false
    /// The clients restricted by name.
    var restrictedClients: Set<String> = []

    /// The name of the policy file inside the store's private folder.
    static let fileName = "policy.json"

    /// No restrictions, as when there is no policy file.
    static let none = AccessPolicy()

    /// Reads the policy at `url`: ``none`` if there is no file, everything restricted if the
    /// file is unreadable or malformed.
    static func load(from url: URL) -> AccessPolicy {
        do {
            guard let data = try DeviceFiles.read(url) else { return .none }
            return try AccessPolicy(data: data, path: url.path(percentEncoded: false))
        } catch {
            return AccessPolicy(restrictsEveryClient: true)
        }
    }

    init(restrictsEveryClient: Bool = false, restrictedClients: Set<String> = []) {
        self.restrictsEveryClient = restrictsEveryClient
        self.restrictedClients = restrictedClients
    }

    /// Parses a policy file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` if it is not a JSON object with a Boolean
    ///   `"restricted"` and an array of strings `"restrictedClients"` (both optional).
    init(data: Data, path: String) throws {
        guard case .object(let fields) = try JSONParser.parse(data, path: path) else {
            throw ContactsError(.malformedFile, "the access policy must be a JSON object", path: path)
        }
        if let value = fields["restricted"] {
            guard let flag = value.bool else {
                throw ContactsError(.malformedFile, "\"restricted\" must be true or false", path: path)
            }
            restrictsEveryClient = flag
        }
        if let value = fields["restrictedClients"] {
            guard let elements = value.array else {
                throw ContactsError(.malformedFile, "\"restrictedClients\" must be an array of names", path: path)
            }
            for element in elements {
                guard let name = element.string else {
                    throw ContactsError(.malformedFile, "\"restrictedClients\" must hold only strings", path: path)
                }
                restrictedClients.insert(name)
            }
        }
    }

    /// Whether the policy restricts `client`.
    func restricts(_ client: String) -> Bool {
        restrictsEveryClient || restrictedClients.contains(client)
    }
}
