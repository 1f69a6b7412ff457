import Foundation

/// The words of a CSV header, lowercased, for ``CSVColumn`` to read: `Straße geschäftlich 2`
/// is `straße`, `geschäftlich`, `2`.
///
/// ```swift
/// Words("Home Phone 2").place   // .home
/// ```
struct Words {
    /// The header lowercased and trimmed.
    var lowered: String
    /// Its words: letters and digits between anything else.
    var list: [String]

    /// The words of `header`.
    init(_ header: String) {
        lowered = header.lowercased().trimmingCharacters(in: .whitespaces)
        list = lowered.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// Whether one of the words is one of `candidates`.
    func hasAny(_ candidates: String...) -> Bool {
        hasAny(candidates)
    }

    /// Whether one of the words is one of `candidates`.
    func hasAny(_ candidates: [String]) -> Bool {
        list.contains(where: candidates.contains)
    }

    /// Whether every one of `candidates` is a word.
    func hasAll(_ candidates: String...) -> Bool {
        candidates.allSatisfy(list.contains)
    }

    /// Whether the header holds `text` anywhere (for Japanese, written without spaces).
    func contains(_ text: String) -> Bool {
        lowered.contains(text)
    }

    /// Whether the header names a phone number: Outlook's and Thunderbird's phone, fax, pager
    /// and mobile columns in any language, and Yahoo's bare `Home`, `Work`, `Other`, `Primary`.
    var isPhone: Bool {
        hasAny(
            "phone", "telefon", "téléphone", "tél", "tel", "mobile", "mobil", "mobiltelefon", "handy", "fax", "pager",
            "callback", "rückmeldung", "isdn", "telex", "tty", "autotelefon")
            || contains("電話") || contains("携帯") || contains("ファクス")
            || ["home", "work", "other", "primary", "mobile", "pager", "fax"].contains(lowered)
    }

    /// The part of a postal address the header names, if it names one.
    var addressPart: FieldKind.AddressPart? {
        if hasAny("country", "land", "pays") || contains("国") { return .country }
        if hasAny("zip", "zipcode", "postal", "postleitzahl", "postcode") || hasAll("post", "code") || contains("郵便番号") {
            return .postcode
        }
        if hasAny("pobox", "postfach") || hasAll("po", "box") { return .street }
        if hasAny("state", "region", "bundesland", "kanton", "province") || contains("都道府県") { return .region }
        if hasAny("city", "ort", "ville", "locality", "town") || contains("市区町村") || contains("市町村") { return .city }
        if hasAny("street", "straße", "strasse", "rue") || contains("番地") { return .street }
        if hasAny("address", "adresse") { return place == nil && !list.contains(where: { Int($0) != nil }) ? .formatted : .street }
        return nil
    }

    /// Home, work or other, as the header says in any of its languages.
    var place: ExpectedLabel? {
        if hasAny("home", "privat", "private", "personal", "domicile", "maison") || contains("自宅") { return .home }
        if hasAny("business", "work", "geschäftlich", "bureau") || contains("会社") { return .work }
        if hasAny("other", "weitere", "weiteres", "weiterer", "autre") { return .other }
        return nil
    }
}
