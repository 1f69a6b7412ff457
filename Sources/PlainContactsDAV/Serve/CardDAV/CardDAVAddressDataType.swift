import PlainContacts

/// Which vCard version a client asks a card in: by `address-data`'s `content-type` and
/// `version` in a report (RFC 6352 section 10.4), or by `Accept` in a `GET` (RFC 9110 section
/// 12.5.1). `nil` means the client names none, and each card is given in the version it came in
/// (3.0 unless it came as 4.0), so that a client reads back the card it wrote.
///
/// ```swift
/// try CardDAVAddressDataType.version(accepting: "text/vcard; version=4.0")   // .v4
/// try CardDAVAddressDataType.version(accepting: "*/*")                       // nil
/// try CardDAVAddressDataType.version(accepting: "application/vcard+json")    // throws 406
/// ```
enum CardDAVAddressDataType {
    /// The media type of the cards the server makes.
    static let mediaType = "text/vcard"
    /// The media types read as ``mediaType`` in `Accept`: its older names.
    static let mediaTypeNames: Set<String> = ["text/vcard", "text/x-vcard", "text/directory"]
    /// The versions offered, as `supported-address-data` lists them.
    static let versions: [VCardVersion] = [.v3, .v4]

    /// The `Content-Type` of a card given in a version a client asked for.
    static func contentType(_ version: VCardVersion) -> String {
        CardDAVService.cardContentType + "; version=" + version.rawValue
    }

    /// What a 406 answer says is offered.
    static var offered: String {
        versions.map { "\(mediaType); version=\($0.rawValue)" }.joined(separator: ", ")
    }

    /// The version an `address-data` element asks for; `nil` for none (no `address-data`, or
    /// one without `version`, whose `content-type` is `text/vcard`).
    ///
    /// RFC 6352's DTD gives `version` the default `3.0`; the server reads a missing `version` as
    /// no choice, since clients that leave it out (vdirsyncer, DAVx5 before it reads
    /// `supported-address-data`) take any card and expect back the one they wrote.
    ///
    /// - Throws: a 403 failure with `CARDDAV:supported-address-data` for another media type
    ///   (`application/vcard+json`) or version (`2.1`).
    static func version(askedIn element: WebDAVElement?) throws -> VCardVersion? {
        guard let addressData = element?.child(.dav("prop"))?.child(CardDAVProperty.addressData.name) else { return nil }
        let unsupported = CardDAVFailure(status: 403, condition: "card:supported-address-data")
        if let type = addressData.attributes["content-type"] {
            let media = HTTPSyntax.trimmed(type.split(separator: ";", omittingEmptySubsequences: false)[0]).lowercased()
            guard media == mediaType else { throw unsupported }
        }
        guard let text = addressData.attributes["version"] else { return nil }
        guard let version = VCardVersion(rawValue: HTTPSyntax.trimmed(text)) else { throw unsupported }
        return version
    }

    /// The version an `Accept` header asks for; `nil` when it names none (no header, `*/*`,
    /// `text/vcard` without `version`, or both versions alike), else the version of the
    /// highest `q`. Each version takes the `q` of the most specific range that matches it
    /// (`text/vcard;version=4.0` before `text/vcard` before `text/*` before `*/*`).
    ///
    /// - Throws: a 406 failure naming what is offered when no version is acceptable.
    static func version(accepting accept: String?) throws -> VCardVersion? {
        guard let accept, !HTTPSyntax.trimmed(accept).isEmpty else { return nil }
        let ranges = accept.split(separator: ",").compactMap(MediaRange.init)
        guard !ranges.isEmpty else { return nil }
        let quality = versions.map { version in
            ranges.filter { $0.matches(version) }.max { $0.specificity < $1.specificity }?.quality ?? 0
        }
        guard let best = quality.max(), best > 0 else {
            throw CardDAVFailure(status: 406, text: "this resource is offered as \(offered)")
        }
        let chosen = versions.indices.filter { quality[$0] == best }
        return chosen.count == 1 ? versions[chosen[0]] : nil
    }

    /// One range of an `Accept` header.
    private struct MediaRange {
        /// The type and subtype, lower case, `*` for any.
        var type: Substring
        var subtype: Substring
        /// The `version` parameter, if any.
        var version: String?
        /// The `q` parameter, 1 when absent.
        var quality: Double

        /// Reads `text/vcard; version=4.0; q=0.5`; `nil` for a range without a slash.
        init?(_ text: Substring) {
            let parts = text.split(separator: ";", omittingEmptySubsequences: false)
            let media = HTTPSyntax.trimmed(parts[0]).lowercased()
            guard let slash = media.firstIndex(of: "/") else { return nil }
            let typeName = Substring(media[..<slash])
            let subtypeName = Substring(media[media.index(after: slash)...])
            if Self.vCardNames.contains(media) {
                type = "text"
                subtype = "vcard"
            } else {
                type = typeName
                subtype = subtypeName
            }
            version = nil
            quality = 1
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let name = HTTPSyntax.trimmed(pair[0]).lowercased()
                var value = HTTPSyntax.trimmed(pair[1])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                if name == "q" {
                    quality = Double(value).map { min(max($0, 0), 1) } ?? 1
                } else if name == "version" {
                    version = value
                }
            }
        }

        /// The media type names read as `text/vcard`.
        private static var vCardNames: Set<String> { CardDAVAddressDataType.mediaTypeNames }

        /// Whether the range admits a card in a version.
        func matches(_ offered: VCardVersion) -> Bool {
            switch (type, subtype) {
            case ("*", "*"), ("text", "*"): true
            case ("text", "vcard"): version.map { $0 == offered.rawValue } ?? true
            default: false
            }
        }

        /// How specific the range is: a version, a type and subtype, a type, nothing.
        var specificity: Int {
            if type == "*" { return 0 }
            if subtype == "*" { return 1 }
            return version == nil ? 2 : 3
        }
    }
}
