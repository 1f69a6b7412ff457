import FoundationEssentials

/// Reading and writing the values of individual vCard properties: dates, instant messages,
/// social profiles, addresses and photos.
enum VCardValues {
    // MARK: Dates

    /// The year Apple writes for a date without a year (with `X-APPLE-OMIT-YEAR=1604`).
    static let omittedYear = 1604

    /// The date of a `BDAY`, `ANNIVERSARY` or `X-ABDATE`, or `nil` when the value is not a
    /// calendar date.
    ///
    /// Accepts `YYYY-MM-DD`, `YYYYMMDD`, `--MM-DD` and `--MMDD`, each optionally followed by a
    /// time part (`T…`), which is ignored. The year is dropped when the property has an
    /// `X-APPLE-OMIT-YEAR` parameter, and when it is 1604 or 0000, the years exporters write
    /// for "no year".
    static func date(_ property: VCardProperty) -> ContactDate? {
        var text = VCardText.trimmingWhitespace(Substring(property.text))
        if let time = text.firstIndex(where: { $0 == "T" || $0 == "t" }) { text = text[..<time] }
        let bytes = Array(text.utf8)
        var year: Int?
        let monthDay: [UInt8]
        if bytes.count >= 2, bytes[0] == dash, bytes[1] == dash {
            monthDay = Array(bytes[2...])
        } else if bytes.count == 10, bytes[4] == dash, bytes[7] == dash {
            guard let number = number(bytes[0..<4]) else { return nil }
            year = number
            monthDay = Array(bytes[5...])
        } else if bytes.count == 8 {
            guard let number = number(bytes[0..<4]) else { return nil }
            year = number
            monthDay = Array(bytes[4...])
        } else {
            return nil
        }
        let digits: ArraySlice<UInt8>
        if monthDay.count == 4 {
            digits = monthDay[...]
        } else if monthDay.count == 5, monthDay[2] == dash {
            digits = ArraySlice(monthDay[0..<2] + monthDay[3..<5])
        } else {
            return nil
        }
        guard let month = number(digits.prefix(2)), let day = number(digits.suffix(2)) else { return nil }
        if property.hasParameter(named: "X-APPLE-OMIT-YEAR") || year == omittedYear || year == 0 { year = nil }
        return try? ContactDate(year: year, month: month, day: day)
    }

    private static let dash = UInt8(ascii: "-")

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// A date property for export: `--MM-DD` for a year-less date in vCard 4, Apple's
    /// `X-APPLE-OMIT-YEAR=1604` form with year 1604 in vCard 3, else `YYYY-MM-DD`.
    static func dateProperty(
        group: String? = nil, name: String, date: ContactDate, version: VCardVersion
    ) -> VCardProperty {
        guard date.year == nil, version == .v3 else {
            return VCardProperty(group: group, name: name, rawValue: date.description)
        }
        // 1604 is a leap year, so every month and day exists in it.
        let withYear = try? ContactDate(year: omittedYear, month: date.month, day: date.day)
        return VCardProperty(
            group: group, name: name,
            parameters: [VCardParameter(name: "X-APPLE-OMIT-YEAR", values: [String(omittedYear)])],
            rawValue: (withYear ?? date).description)
    }

    // MARK: Instant messages

    /// The services of the older one-property-per-service vCard 3 extensions.
    static let legacyInstantMessageServices: [String: String] = [
        "X-AIM": "AIM", "X-JABBER": "Jabber", "X-SKYPE": "Skype", "X-SKYPE-USERNAME": "Skype",
        "X-ICQ": "ICQ", "X-MSN": "MSN", "X-YAHOO": "Yahoo", "X-GOOGLE-TALK": "GoogleTalk",
        "X-GADUGADU": "GaduGadu", "X-QQ": "QQ",
    ]

    /// Service names for URI schemes of `IMPP` values.
    private static let servicesByScheme: [String: String] = [
        "xmpp": "Jabber", "jabber": "Jabber", "skype": "Skype", "aim": "AIM", "icq": "ICQ",
        "msnim": "MSN", "msn": "MSN", "ymsgr": "Yahoo", "yahoo": "Yahoo", "gtalk": "GoogleTalk",
        "gg": "GaduGadu", "gadugadu": "GaduGadu", "qq": "QQ", "irc": "IRC", "sip": "SIP",
        "matrix": "Matrix", "facebook": "Facebook",
    ]

    /// URI schemes for services, looked up in lower case.
    private static let schemesByService: [String: String] = [
        "jabber": "xmpp", "skype": "skype", "aim": "aim", "icq": "icq", "msn": "msnim", "yahoo": "ymsgr",
        "googletalk": "xmpp", "gadugadu": "gg", "qq": "qq", "irc": "irc", "sip": "sip", "matrix": "matrix",
        "facebook": "xmpp",
    ]

    /// The account of an `IMPP` property: the service from `X-SERVICE-TYPE`, else from the URI
    /// scheme (`xmpp:` is Jabber; an unknown scheme is kept as the service name); the user name
    /// is the rest of the value. A value without a scheme is a bare user name.
    static func instantMessage(impp property: VCardProperty) -> InstantMessage? {
        let value = property.text
        var service: String?
        var username = value
        if let colon = value.firstIndex(of: ":"), isScheme(value[..<colon]) {
            let scheme = String(value[..<colon])
            username = String(value[value.index(after: colon)...])
            let lower = scheme.lowercased()
            service = lower == "x-apple" ? nil : servicesByScheme[lower] ?? scheme
        }
        if let declared = property.parameter(named: "X-SERVICE-TYPE").first, !declared.isEmpty {
            service = declared
        }
        let account = InstantMessage(service: service, username: username.isEmpty ? nil : username)
        return account.service == nil && account.username == nil ? nil : account
    }

    /// An `IMPP` value for an account: `scheme:username`, the scheme being the service's own
    /// (`xmpp` for Jabber), the service name itself when it is a valid scheme, or `x-apple`.
    static func imppValue(_ account: InstantMessage) -> String {
        let username = account.username ?? ""
        guard let service = account.service, !service.isEmpty else { return username }
        let scheme = schemesByService[service.lowercased()] ?? (isScheme(Substring(service)) ? service : "x-apple")
        return scheme + ":" + username
    }

    /// Whether the text is a URI scheme: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "+" || scalar == "-" || scalar == ".")
        }
    }

    // MARK: Social profiles

    /// The profile of an `X-SOCIALPROFILE` property: the service from `TYPE` (as written), the
    /// user name from `X-USER`, the identifier from `X-USERID` and the address from the value.
    static func socialProfile(_ property: VCardProperty) -> SocialProfile? {
        func first(_ name: String) -> String? {
            property.parameter(named: name).first { !$0.isEmpty && $0.lowercased() != "pref" }
        }
        let url = property.text
        let profile = SocialProfile(
            url: url.isEmpty ? nil : url, service: first("TYPE"), username: first("X-USER"),
            identifier: first("X-USERID"))
        guard profile.url != nil || profile.username != nil || profile.identifier != nil else { return nil }
        return profile
    }

    // MARK: Addresses

    /// The address of an `ADR` value (`pobox;ext;street;city;region;zip;country`), each field
    /// in its own place.
    static func address(_ property: VCardProperty, countryCode: String?) -> PostalAddress? {
        var parts = property.components
        while parts.count < 7 { parts.append("") }
        func part(_ index: Int) -> String? {
            let text = parts[index]
            return text.isEmpty ? nil : text
        }
        let address = PostalAddress(
            poBox: part(0), extendedAddress: part(1), street: part(2),
            city: part(3), state: part(4), zip: part(5), country: part(6),
            countryCode: countryCode.flatMap { $0.isEmpty ? nil : $0.lowercased() })
        return address.isEmpty ? nil : address
    }

    // MARK: Photos

    /// The image bytes of a `PHOTO`: base64 with `ENCODING=b` / `BASE64`, or a
    /// `data:…;base64,…` URI. `nil` for an external address or an empty value.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedVCard`` when the base64 text is invalid.
    static func photo(_ property: VCardProperty, source: String) throws -> Data? {
        let invalid = InterchangeError(
            .malformedVCard, "the PHOTO value is not valid base64", path: source, line: property.line)
        if property.isBase64Encoded {
            guard !property.rawValue.isEmpty else { return nil }
            guard let data = decodeBase64(property.rawValue) else { throw invalid }
            return data
        }
        let text = property.text
        guard text.utf8.count > 5, text.prefix(5).lowercased() == "data:" else { return nil }
        guard let comma = text.firstIndex(of: ","),
            text[..<comma].lowercased().hasSuffix(";base64")
        else { return nil }
        let payload = text[text.index(after: comma)...].filter { !$0.isWhitespace }
        guard !payload.isEmpty else { return nil }
        guard let data = decodeBase64(payload) else { throw invalid }
        return data
    }

    /// Base64 decoding that accepts missing `=` padding.
    private static func decodeBase64(_ text: String) -> Data? {
        var padded = text
        let remainder = padded.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { padded += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: padded)
    }

    /// The vCard 3 `TYPE` and the media type of image bytes.
    static func imageTypes(of data: Data) -> (vCard3Type: String?, mediaType: String) {
        switch ImageFormat.fileExtension(of: data) {
        case "jpg": ("JPEG", "image/jpeg")
        case "png": ("PNG", "image/png")
        case "gif": ("GIF", "image/gif")
        case "webp": ("WEBP", "image/webp")
        case "heic": ("HEIC", "image/heic")
        case "tiff": ("TIFF", "image/tiff")
        case "bmp": ("BMP", "image/bmp")
        default: (nil, "application/octet-stream")
        }
    }
}
