import PlainContacts

/// A person's properties as the rows of their page: a label and the value as HTML, escaped,
/// in ``PropertyID/personProperties`` order, multi-values with their labels.
///
/// Phones are `tel:` links, emails `mailto:` links and web addresses links when they are
/// `http` or `https` (any other scheme, such as `javascript:`, is shown as text).
///
/// ```swift
/// WebPersonFields.rows(of: person, groups: ["Friends"])
/// // [("phone (mobile)", "<a href=\"tel:+15550100\">+1 555 0100</a>"), ("groups", "Friends")]
/// ```
enum WebPersonFields {
    /// The properties the page's heading shows.
    private static let heading: Set<PropertyID> = [.prefix, .firstName, .middleName, .lastName, .suffix]

    static func rows(of person: Person, groups: [String]) -> [(field: String, html: String)] {
        var rows: [(String, String)] = []
        func add<Value>(_ field: String, _ values: MultiValue<Value>, _ html: (Value) -> String) {
            for entry in values {
                rows.append((entry.label.map { "\(field) (\($0.localizedName))" } ?? field, html(entry.value)))
            }
        }
        if person.kind == .organization { rows.append(("kind", "organization")) }
        for property in PropertyID.personProperties where !property.isReadOnly && !heading.contains(property) {
            if property == .organization, person.kind == .organization { continue }
            let field = property.localizedName
            switch person.value(for: property) {
            case .string(let text)? where !text.isEmpty: rows.append((field, WebHTML.escaped(text)))
            case .date(let date)?:
                let age = property == .birthday ? age(on: date).map { " (\($0) years old)" } ?? "" : ""
                rows.append((field, WebHTML.escaped(date.description + age)))
            case .multiString(let values)?:
                add(field, values) { text in link(text, property: property) }
            case .multiDate(let values)?: add(field, values) { WebHTML.escaped($0.description) }
            case .multiAddress(let values)?: add(field, values) { WebHTML.escaped($0.formattedLines.joined(separator: "\n")) }
            case .multiInstantMessage(let values)?:
                add(field, values) { account in
                    WebHTML.escaped([account.username, account.service.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "))
                }
            case .multiSocialProfile(let values)?:
                add(field, values) { profile in
                    let text = [profile.username, profile.service.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
                    guard let url = profile.url, isWebAddress(url) else {
                        return WebHTML.escaped([text, profile.url ?? ""].filter { !$0.isEmpty }.joined(separator: " "))
                    }
                    return "<a href=\"\(WebHTML.escaped(url))\" rel=\"noopener noreferrer\">\(WebHTML.escaped(text.isEmpty ? url : text))</a>"
                }
            case .string?, .kind?, .timestamp?, nil: break
            }
        }
        if !groups.isEmpty { rows.append(("groups", WebHTML.escaped(groups.joined(separator: ", ")))) }
        return rows
    }

    /// The age a person born on `birthday` has reached today; `nil` without a year.
    static func age(on birthday: ContactDate, today: ContactDate = .today()) -> Int? {
        guard let year = birthday.year, let now = today.year, year <= now else { return nil }
        let hadBirthday = (today.month, today.day) >= (birthday.month, birthday.day)
        return now - year - (hadBirthday ? 0 : 1)
    }

    /// A multi-value text as HTML: a link for phones, emails and web addresses.
    private static func link(_ text: String, property: PropertyID) -> String {
        let shown = WebHTML.escaped(text)
        switch property {
        case .phones:
            let dialled = text.filter { $0.isNumber || $0 == "+" || $0 == "*" || $0 == "#" }
            return dialled.isEmpty ? shown : "<a href=\"tel:\(WebHTML.escaped(dialled))\">\(shown)</a>"
        case .emails:
            return "<a href=\"mailto:\(WebHTML.escaped(WebForm.encoded(text).replacingOccurrences(of: "%40", with: "@")))\">\(shown)</a>"
        case .urls:
            return isWebAddress(text) ? "<a href=\"\(shown)\" rel=\"noopener noreferrer\">\(shown)</a>" : shown
        default:
            return shown
        }
    }

    /// Whether `text` is an `http` or `https` address, the only ones made links.
    static func isWebAddress(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }
}
