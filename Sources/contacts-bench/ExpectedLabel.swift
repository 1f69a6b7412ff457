import Foundation

/// The type another program's export gives a value (home, work, mobile, fax…), and the labels
/// of the store that keep it.
///
/// ```swift
/// ExpectedLabel.fax(.work).accepts("workFax")   // true
/// ExpectedLabel.word("* Home").name            // "home"
/// ```
struct ExpectedLabel: Hashable {
    /// The type as the output names it: `home`, `workFax`, `car`, or the export's own word.
    var name: String
    /// The store's label values that keep it, in the form ``normalized(_:)`` gives.
    var accepted: Set<String>

    /// At home.
    static let home = ExpectedLabel(name: "home", accepted: ["home"])
    /// At work.
    static let work = ExpectedLabel(name: "work", accepted: ["work"])
    /// Neither at home nor at work.
    static let other = ExpectedLabel(name: "other", accepted: ["other"])
    /// A mobile phone (the store's `iPhone` is one too).
    static let mobile = ExpectedLabel(name: "mobile", accepted: ["mobile", "iphone"])
    /// A pager.
    static let pager = ExpectedLabel(name: "pager", accepted: ["pager"])
    /// The main number.
    static let main = ExpectedLabel(name: "main", accepted: ["main"])
    /// A home page: the store's `homePage`, or `home`.
    static let homePage = ExpectedLabel(name: "homePage", accepted: ["homepage", "home"])
    /// An anniversary among the dates.
    static let anniversary = ExpectedLabel(name: "anniversary", accepted: ["anniversary"])

    /// A fax number, at home, at work or elsewhere as `place` says, or any fax without it.
    static func fax(_ place: ExpectedLabel?) -> ExpectedLabel {
        switch place?.name {
        case "home": ExpectedLabel(name: "homeFax", accepted: ["homefax"])
        case "work": ExpectedLabel(name: "workFax", accepted: ["workfax"])
        case "other": ExpectedLabel(name: "otherFax", accepted: ["otherfax"])
        default: ExpectedLabel(name: "fax", accepted: ["fax", "homefax", "workfax", "otherfax"])
        }
    }

    /// A type with no standard label (`car`, `Custom phone`): kept as the same word, in any case.
    static func custom(_ word: String) -> ExpectedLabel {
        ExpectedLabel(name: word, accepted: [normalized(word)])
    }

    /// The label a type written out in an export names: Google's `* Home`, `Work Fax`, `Home
    /// Page`, a Gmail 2007 section's `Personal`; any other word as itself. `nil` for nothing.
    static func word(_ text: String) -> ExpectedLabel? {
        var word = text.trimmingCharacters(in: .whitespaces)
        if word.hasPrefix("*") { word = String(word.dropFirst()).trimmingCharacters(in: .whitespaces) }
        switch word.lowercased() {
        case "": return nil
        case "home", "personal", "private": return .home
        case "work", "business", "office": return .work
        case "other": return .other
        case "mobile", "cell", "cellular": return .mobile
        case "pager": return .pager
        case "main", "primary": return .main
        case "home page", "homepage": return .homePage
        case "home fax": return .fax(.home)
        case "work fax", "business fax": return .fax(.work)
        case "other fax": return .fax(.other)
        case "fax": return .fax(nil)
        case "anniversary": return .anniversary
        default: return .custom(word)
        }
    }

    /// Whether a value labelled `label` (a store label's raw value, or an account's service)
    /// keeps this type.
    func accepts(_ label: String?) -> Bool {
        guard let label else { return false }
        return accepted.contains(Self.normalized(label))
    }

    /// A label as compared: lowercased letters and digits only, so that `Home Fax`, `homeFax`
    /// and `home-fax` are one.
    static func normalized(_ label: String) -> String {
        label.lowercased().filter { $0.isLetter || $0.isNumber }
    }
}
