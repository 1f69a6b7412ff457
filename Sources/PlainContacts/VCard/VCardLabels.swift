/// The kinds of labelled vCard values, each with its own `TYPE` vocabulary.
enum VCardValueKind: Sendable {
    /// `TEL`.
    case phone
    /// `EMAIL`.
    case email
    /// `URL`.
    case url
    /// `ADR`.
    case address
    /// `IMPP` and the older `X-AIM`, `X-JABBER`… properties.
    case instantMessage
    /// vCard 4 `RELATED`.
    case relatedName
}

/// How labels are written in vCards: `TYPE` parameters and Apple's `X-ABLabel` item labels.
///
/// On import an `X-ABLabel` in the property's item group wins over `TYPE`. Apple's
/// `_$!<Word>!$_` form maps to the predefined label of that word (`_$!<HomeFAX>!$_` is
/// ``Label/homeFax``); any other text is a custom label, kept verbatim. `TYPE` words map as the
/// table of ``label(types:kind:)`` says; capability words (`VOICE`, `PREF`, `INTERNET`…) and
/// `X-` words are noise.
///
/// On export a label with a `TYPE` equivalent for its kind of value is written as `TYPE`
/// (``types(for:kind:)``); any other label goes into an Apple item group with `X-ABLabel`
/// (``appleLabel(for:)``).
///
/// ```swift
/// VCardLabels.label(types: ["FAX", "HOME"], kind: .phone)   // .homeFax
/// VCardLabels.label(appleLabel: "_$!<Mobile>!$_")           // .mobile
/// VCardLabels.types(for: .workFax, kind: .phone)            // ["FAX", "WORK"]
/// VCardLabels.appleLabel(for: .spouse)                      // "_$!<Spouse>!$_"
/// ```
enum VCardLabels {
    // MARK: Import

    /// The label an `X-ABLabel` value stands for: a predefined label for Apple's
    /// `_$!<Word>!$_` form of one, else the text itself as a custom label; `nil` for empty text.
    static func label(appleLabel text: String) -> Label? {
        guard !text.isEmpty else { return nil }
        if text.hasPrefix(applePrefix), text.hasSuffix(appleSuffix),
            text.utf8.count > applePrefix.utf8.count + appleSuffix.utf8.count
        {
            let inner = text.dropFirst(applePrefix.count).dropLast(appleSuffix.count)
            if let label = predefinedByAppleWord[inner.lowercased()] { return label }
        }
        return Label(text)
    }

    /// The label that `TYPE` words (upper case) stand for on a kind of value, or `nil`.
    ///
    /// | kind | words → label |
    /// |---|---|
    /// | phone | `FAX`+`HOME` → homeFax, `FAX`+`WORK` → workFax, `FAX` → otherFax, `IPHONE` → iPhone, `CELL`/`MOBILE` → mobile, `MAIN` → main, `PAGER` → pager, `HOME`, `WORK`, `OTHER` |
    /// | email, address | `HOME`, `WORK`, `OTHER` |
    /// | url | `HOME`/`HOMEPAGE` → homePage, `WORK`, `OTHER` |
    /// | instant message | `HOME`/`PERSONAL` → home, `WORK`/`BUSINESS` → work, `OTHER`, `MOBILE` |
    /// | related name | `SPOUSE`, `CHILD`, `PARENT`, `FRIEND` and the other related-name words |
    ///
    /// When no word of the table is present, the first other word (in byte order) that is not
    /// noise becomes a custom label in lower case (`CAR` → "car").
    static func label(types: Set<String>, kind: VCardValueKind) -> Label? {
        if types.isEmpty { return nil }
        if let known = knownLabel(types: types, kind: kind) { return known }
        let meaningful = types.filter { !noiseTypes.contains($0) && !$0.hasPrefix("X-") }
        guard let word = meaningful.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) else { return nil }
        return Label(word.lowercased())
    }

    private static func knownLabel(types: Set<String>, kind: VCardValueKind) -> Label? {
        func has(_ words: String...) -> Bool { words.contains { types.contains($0) } }
        switch kind {
        case .phone:
            if has("FAX") {
                if has("HOME") { return .homeFax }
                if has("WORK") { return .workFax }
                return .otherFax
            }
            if has("IPHONE") { return .iPhone }
            if has("CELL", "MOBILE") { return .mobile }
            if has("MAIN") { return .main }
            if has("PAGER") { return .pager }
            return generic(has)
        case .email, .address:
            return generic(has)
        case .url:
            if has("HOME", "HOMEPAGE") { return .homePage }
            if has("WORK") { return .work }
            if has("OTHER") { return .other }
            return nil
        case .instantMessage:
            if has("HOME", "PERSONAL") { return .home }
            if has("WORK", "BUSINESS") { return .work }
            if has("OTHER") { return .other }
            if has("MOBILE") { return .mobile }
            return nil
        case .relatedName:
            return relatedLabels.first { has($0.rawValue.uppercased()) }
        }
    }

    private static func generic(_ has: (String...) -> Bool) -> Label? {
        if has("HOME") { return .home }
        if has("WORK") { return .work }
        if has("OTHER") { return .other }
        return nil
    }

    // MARK: Export

    /// The `TYPE` words that stand for a label on a kind of value, or `nil` when the label has
    /// none and must be written as an Apple item label.
    static func types(for label: Label, kind: VCardValueKind) -> [String]? {
        switch kind {
        case .phone: phoneTypes[label]
        case .email, .address: genericTypes[label]
        case .url: urlTypes[label]
        case .instantMessage: instantMessageTypes[label]
        case .relatedName: nil
        }
    }

    /// The `X-ABLabel` text of a label: Apple's `_$!<Word>!$_` form for a predefined label, the
    /// text itself for a custom one.
    static func appleLabel(for label: Label) -> String {
        if let word = appleWords[label] { return applePrefix + word + appleSuffix }
        return label.rawValue
    }

    // MARK: Tables

    private static let applePrefix = "_$!<"
    private static let appleSuffix = ">!$_"

    /// Capability and delivery words that say nothing about whose value it is.
    private static let noiseTypes: Set<String> = [
        "VOICE", "PREF", "INTERNET", "X400", "TEXT", "MSG", "VIDEO", "TEXTPHONE", "BBS", "MODEM", "ISDN",
        "POSTAL", "PARCEL", "DOM", "INTL",
    ]

    private static let relatedLabels: [Label] = [
        .spouse, .child, .parent, .friend, .father, .mother, .brother, .sister, .partner, .assistant, .manager,
    ]

    /// The word Apple writes between `_$!<` and `>!$_` for each predefined label.
    private static let appleWords: [Label: String] = [
        .home: "Home", .work: "Work", .other: "Other", .mobile: "Mobile", .iPhone: "iPhone", .main: "Main",
        .homeFax: "HomeFAX", .workFax: "WorkFAX", .otherFax: "OtherFAX", .pager: "Pager",
        .homePage: "HomePage", .anniversary: "Anniversary", .father: "Father", .mother: "Mother",
        .parent: "Parent", .brother: "Brother", .sister: "Sister", .child: "Child", .friend: "Friend",
        .spouse: "Spouse", .partner: "Partner", .assistant: "Assistant", .manager: "Manager",
    ]

    private static let predefinedByAppleWord: [String: Label] = Dictionary(
        uniqueKeysWithValues: appleWords.map { ($0.value.lowercased(), $0.key) })

    private static let phoneTypes: [Label: [String]] = [
        .mobile: ["CELL"], .iPhone: ["IPHONE", "CELL"], .main: ["MAIN"], .home: ["HOME"], .work: ["WORK"],
        .homeFax: ["FAX", "HOME"], .workFax: ["FAX", "WORK"], .otherFax: ["FAX"], .pager: ["PAGER"],
        .other: ["OTHER"],
    ]

    private static let genericTypes: [Label: [String]] = [.home: ["HOME"], .work: ["WORK"], .other: ["OTHER"]]

    private static let urlTypes: [Label: [String]] = [.work: ["WORK"], .other: ["OTHER"]]

    private static let instantMessageTypes: [Label: [String]] = [
        .home: ["HOME"], .work: ["WORK"], .other: ["OTHER"], .mobile: ["MOBILE"],
    ]
}
