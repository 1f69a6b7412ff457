import PlainContacts

/// The filter of an `addressbook-query` report (RFC 6352 section 10.5): which cards match.
///
/// A filter holds property filters joined by `anyof` (the default) or `allof`. A property
/// filter matches a card when the card has the property (`is-not-defined`: when it has not),
/// or, with text matches and parameter filters, when one of the card's instances of the property
/// passes them (joined by the property filter's own `test`). A text match compares the
/// property's text (or a parameter's values) with `equals`, `contains` (the default),
/// `starts-with` or `ends-with`, under the collation `i;unicode-casemap` (the default),
/// `i;ascii-casemap` or `i;octet`, and may be negated.
///
/// ```swift
/// let filter = try CardDAVQueryFilter(element)   // <card:filter><card:prop-filter name="EMAIL">…
/// filter.matches(card)
/// ```
struct CardDAVQueryFilter: Sendable {
    /// How conditions are joined.
    enum Test: Sendable {
        /// One condition suffices (the default).
        case anyOf
        /// Every condition must hold.
        case allOf

        /// The test a `test` attribute names.
        init(_ attribute: String?) {
            self = attribute?.lowercased() == "allof" ? .allOf : .anyOf
        }
    }

    /// How text is compared.
    enum Collation: String, Sendable {
        /// Without regard to case, for every script (the default).
        case unicodeCaseMap = "i;unicode-casemap"
        /// Without regard to ASCII case.
        case asciiCaseMap = "i;ascii-casemap"
        /// Byte for byte.
        case octet = "i;octet"
    }

    /// Where a match is sought in the text.
    enum MatchType: String, Sendable {
        /// The whole text.
        case equals
        /// Anywhere in the text (the default).
        case contains
        /// At its start.
        case startsWith = "starts-with"
        /// At its end.
        case endsWith = "ends-with"
    }

    /// One `text-match`.
    struct TextMatch: Sendable {
        /// The text sought, folded by the collation.
        var text: String
        /// How texts are compared.
        var collation: Collation
        /// Where the text is sought.
        var matchType: MatchType
        /// Whether the match is negated (`negate-condition="yes"`).
        var negated: Bool

        /// Reads a `text-match` element.
        ///
        /// - Throws: a 403 failure with `CARDDAV:supported-collation` for another collation; a
        ///   400 failure for another match type.
        init(_ element: WebDAVElement) throws {
            let collationName = element.attributes["collation"] ?? Collation.unicodeCaseMap.rawValue
            guard let collation = Collation(rawValue: collationName) else {
                throw CardDAVFailure(status: 403, condition: "card:supported-collation")
            }
            guard let matchType = MatchType(rawValue: element.attributes["match-type"] ?? "contains") else {
                throw CardDAVFailure(status: 400, text: "the query's text-match has an unknown match-type")
            }
            self.collation = collation
            self.matchType = matchType
            negated = element.attributes["negate-condition"]?.lowercased() == "yes"
            text = Self.folded(element.text, collation)
        }

        /// Whether a value passes.
        func matches(_ value: String) -> Bool {
            let value = Self.folded(value, collation)
            let found: Bool
            switch matchType {
            case .equals: found = value == text
            case .contains: found = text.isEmpty || value.contains(text)
            case .startsWith: found = value.hasPrefix(text)
            case .endsWith: found = value.hasSuffix(text)
            }
            return found != negated
        }

        /// A text as the collation compares it.
        private static func folded(_ text: String, _ collation: Collation) -> String {
            switch collation {
            case .unicodeCaseMap: text.lowercased()
            case .asciiCaseMap: String(decoding: text.utf8.map(HTTPSyntax.lowercased), as: UTF8.self)
            case .octet: text
            }
        }
    }

    /// One `param-filter`.
    struct ParameterFilter: Sendable {
        /// The parameter's name as the request gives it, matched case-insensitively.
        var name: String
        /// Whether the parameter must be absent.
        var isNotDefined: Bool
        /// What one of its values must match.
        var textMatch: TextMatch?

        /// Whether a property instance passes.
        func matches(_ property: VCardProperty) -> Bool {
            let values = property.parameter(named: name)
            let defined = property.hasParameter(named: name)
            if isNotDefined { return !defined }
            guard defined else { return false }
            guard let textMatch else { return true }
            return values.contains { textMatch.matches($0) }
        }
    }

    /// One `prop-filter`.
    struct PropertyFilter: Sendable {
        /// The property's name as the request gives it, matched case-insensitively.
        var name: String
        /// How the text matches and parameter filters are joined.
        var test: Test
        /// Whether the property must be absent.
        var isNotDefined: Bool
        /// What the property's text must match.
        var textMatches: [TextMatch]
        /// What its parameters must match.
        var parameterFilters: [ParameterFilter]

        /// Whether a card passes.
        func matches(_ card: VCard) -> Bool {
            let instances = card.properties(named: name)
            if isNotDefined { return instances.isEmpty }
            guard !instances.isEmpty else { return false }
            if textMatches.isEmpty && parameterFilters.isEmpty { return true }
            return instances.contains { instance in
                let results = textMatches.map { $0.matches(instance.text) } + parameterFilters.map { $0.matches(instance) }
                return test == .allOf ? results.allSatisfy { $0 } : results.contains(true)
            }
        }
    }

    /// How the property filters are joined.
    var test: Test
    /// The property filters; none matches every card.
    var propertyFilters: [PropertyFilter]

    /// Reads a `filter` element; `nil` reads as a filter every card passes.
    ///
    /// - Throws: the failures of ``TextMatch/init(_:)``; a 400 failure for a property or
    ///   parameter filter without a name.
    init(_ element: WebDAVElement?) throws {
        test = Test(element?.attributes["test"])
        var filters: [PropertyFilter] = []
        for child in element?.children ?? [] where child.name == .cardDAV("prop-filter") {
            guard let name = child.attributes["name"], !name.isEmpty else {
                throw CardDAVFailure(status: 400, text: "a prop-filter of the query has no name")
            }
            var parameters: [ParameterFilter] = []
            for parameter in child.children where parameter.name == .cardDAV("param-filter") {
                guard let parameterName = parameter.attributes["name"], !parameterName.isEmpty else {
                    throw CardDAVFailure(status: 400, text: "a param-filter of the query has no name")
                }
                parameters.append(
                    ParameterFilter(
                        name: parameterName,
                        isNotDefined: parameter.child(.cardDAV("is-not-defined")) != nil,
                        textMatch: try parameter.child(.cardDAV("text-match")).map(TextMatch.init)))
            }
            filters.append(
                PropertyFilter(
                    name: name, test: Test(child.attributes["test"]),
                    isNotDefined: child.child(.cardDAV("is-not-defined")) != nil,
                    textMatches: try child.children.filter { $0.name == .cardDAV("text-match") }.map(TextMatch.init),
                    parameterFilters: parameters))
        }
        propertyFilters = filters
    }

    /// Whether a card passes the filter.
    func matches(_ card: VCard) -> Bool {
        guard !propertyFilters.isEmpty else { return true }
        switch test {
        case .anyOf: return propertyFilters.contains { $0.matches(card) }
        case .allOf: return propertyFilters.allSatisfy { $0.matches(card) }
        }
    }
}
