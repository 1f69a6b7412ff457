import FoundationEssentials
import PlainContactsSystem

/// Reads typed values out of a record's JSON, with errors that name the file and the key.
struct FieldReader {
    let path: String

    init(path: String) {
        self.path = path
    }

    private func failure(_ key: String, _ expectation: String) -> ContactsError {
        ContactsError(.malformedFile, "\"\(key)\" must be \(expectation)", path: path)
    }

    func recordID(_ value: JSONValue) throws -> RecordID {
        guard let number = value.int, number > 0, number <= Int(Int32.max) else {
            throw failure("id", "a positive whole number below 2147483648")
        }
        return RecordID(Int32(number))
    }

    func string(_ value: JSONValue, key: String) throws -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        default: throw failure(key, "a string")
        }
    }

    func int32(_ value: JSONValue, key: String) throws -> Int32 {
        guard let number = value.int, number >= 0, number <= Int(Int32.max) else {
            throw failure(key, "a whole number from 0 to 2147483647")
        }
        return Int32(number)
    }

    /// A multi-value identifier from 0 to ``MultiValueIdentifier/highest``.
    private func multiValueIdentifier(_ value: JSONValue, key: String) throws -> Int32 {
        guard let number = value.int, number >= 0, number <= Int(MultiValueIdentifier.highest) else {
            throw failure(key, "a whole number from 0 to \(MultiValueIdentifier.highest)")
        }
        return Int32(number)
    }

    func stringArray(_ value: JSONValue, key: String) throws -> [String] {
        guard case .array(let items) = value else { throw failure(key, "an array of strings") }
        return try items.map { item in
            guard case .string(let text) = item else { throw failure(key, "an array of strings") }
            return text
        }
    }

    func timestamp(_ value: JSONValue, key: String) throws -> Date? {
        guard let text = try string(value, key: key) else { return nil }
        guard let date = Timestamp.parse(text) else {
            throw failure(key, "a UTC time such as \"2026-11-23T07:36:31Z\"")
        }
        return date
    }

    private func contactDate(_ value: JSONValue, key: String) throws -> ContactDate {
        guard case .string(let text) = value, let date = try? ContactDate(parsing: text) else {
            throw failure(key, "a date written YYYY-MM-DD, or --MM-DD without a year")
        }
        return date
    }

    /// Decodes a property's value; `nil` for JSON null (treated as unset).
    func propertyValue(_ value: JSONValue, property: PropertyID, counter: inout Int32) throws -> PropertyValue? {
        if case .null = value { return nil }
        let key = property.key
        switch property.type {
        case .string:
            return try string(value, key: key).map(PropertyValue.string)
        case .timestamp:
            return try timestamp(value, key: key).map(PropertyValue.timestamp)
        case .date:
            return .date(try contactDate(value, key: key))
        case .kind:
            guard case .string(let text) = value, let kind = PersonKind(rawValue: text) else {
                throw failure(key, "\"person\" or \"organization\"")
            }
            return kind == .person ? nil : .kind(kind)
        case .multiString:
            return .multiString(try multi(value, key: key, counter: &counter) { value in
                guard case .string(let text) = value else { throw failure(key, "a list of {\"id\", \"label\", \"value\"} objects with text values") }
                return text
            })
        case .multiDate:
            return .multiDate(try multi(value, key: key, counter: &counter) { try contactDate($0, key: key) })
        case .multiAddress:
            return .multiAddress(try multi(value, key: key, counter: &counter) { try address($0, key: key) })
        case .multiInstantMessage:
            return .multiInstantMessage(try multi(value, key: key, counter: &counter) { try instantMessage($0, key: key) })
        case .multiSocialProfile:
            return .multiSocialProfile(try multi(value, key: key, counter: &counter) { try socialProfile($0, key: key) })
        }
    }

    private func multi<Value>(
        _ value: JSONValue, key: String, counter: inout Int32, _ decode: (JSONValue) throws -> Value
    ) throws -> MultiValue<Value> {
        guard case .array(let items) = value else {
            throw failure(key, "a list of {\"id\", \"label\", \"value\"} objects")
        }
        var entries: [MultiValue<Value>.Entry] = []
        entries.reserveCapacity(items.count)
        var seen = Set<Int32>()
        var unnumbered: [Int] = []
        for item in items {
            guard case .object(var fields) = item, let rawValue = fields.removeValue(forKey: "value") else {
                throw failure(key, "a list of {\"id\", \"label\", \"value\"} objects")
            }
            var identifier = MultiValueIdentifier.invalid
            if let idValue = fields.removeValue(forKey: "id") {
                let number = try multiValueIdentifier(idValue, key: "\(key).id")
                if seen.insert(number).inserted {
                    identifier = MultiValueIdentifier(rawValue: number)
                }
            }
            if identifier == .invalid { unnumbered.append(entries.count) }
            var label: Label?
            if let labelValue = fields.removeValue(forKey: "label") {
                label = try string(labelValue, key: "\(key).label").flatMap { $0.isEmpty ? nil : Label($0) }
            }
            entries.append(.init(identifier: identifier, label: label, value: try decode(rawValue), unknownFields: fields))
        }
        // Entries added by hand without an "id" (or with a repeated one) get fresh identifiers.
        var next = max(counter, MultiValueIdentifier.successor(of: seen.max() ?? -1))
        for index in unnumbered {
            guard next <= MultiValueIdentifier.highest else { throw ContactsError.identifiersExhausted(path: path) }
            let entry = entries[index]
            entries[index] = .init(
                identifier: MultiValueIdentifier(rawValue: next), label: entry.label, value: entry.value,
                unknownFields: entry.unknownFields)
            next += 1
        }
        counter = max(counter, next)
        return MultiValue(entries: entries, nextIdentifier: counter)
    }

    private func object(_ value: JSONValue, key: String, expectation: String) throws -> [String: JSONValue] {
        guard case .object(let fields) = value else { throw failure(key, expectation) }
        return fields
    }

    private func address(_ value: JSONValue, key: String) throws -> PostalAddress {
        var fields = try object(value, key: key, expectation: "a list of entries whose values are address objects")
        var address = PostalAddress()
        func take(_ name: String) throws -> String? {
            guard let value = fields.removeValue(forKey: name) else { return nil }
            return try string(value, key: "\(key).\(name)")
        }
        address.poBox = try take("poBox")
        address.extendedAddress = try take("extendedAddress")
        address.street = try take("street")
        address.city = try take("city")
        address.state = try take("state")
        address.zip = try take("zip")
        address.country = try take("country")
        address.countryCode = try take("countryCode")
        address.unknownFields = fields
        return address
    }

    private func instantMessage(_ value: JSONValue, key: String) throws -> InstantMessage {
        var fields = try object(value, key: key, expectation: "a list of entries whose values are {\"service\", \"username\"} objects")
        var account = InstantMessage()
        if let value = fields.removeValue(forKey: "service") { account.service = try string(value, key: "\(key).service") }
        if let value = fields.removeValue(forKey: "username") { account.username = try string(value, key: "\(key).username") }
        account.unknownFields = fields
        return account
    }

    private func socialProfile(_ value: JSONValue, key: String) throws -> SocialProfile {
        var fields = try object(value, key: key, expectation: "a list of entries whose values are profile objects")
        var profile = SocialProfile()
        func take(_ name: String) throws -> String? {
            guard let value = fields.removeValue(forKey: name) else { return nil }
            return try string(value, key: "\(key).\(name)")
        }
        profile.url = try take("url")
        profile.service = try take("service")
        profile.username = try take("username")
        profile.identifier = try take("identifier")
        profile.unknownFields = fields
        return profile
    }
}
