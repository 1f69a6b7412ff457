import Foundation

/// How a header names a column, in the words of each program's export.
extension CSVColumn {
    /// The column a header names. `jobTitleColumn` says whether the file also has a job title
    /// column: Outlook's `Title` is then the name's prefix, else (Yahoo, KAddressBook) the job
    /// title.
    init(header: String, jobTitleColumn: Bool) {
        let words = Words(header)
        if let (group, part) = Self.googleGroup(words.lowered) {
            self.init(google: group, part: part, header: header)
            return
        }
        self.init(header: header, role: .value)
        if let kind = Self.simpleKind(words, jobTitleColumn: jobTitleColumn) {
            self.kind = kind
            label = Self.label(of: kind, words)
            if kind == .group { groupSeparators = [":::", ";", ","] }
        } else if words.hasAny("mail", "email", "messagerie") || words.contains("メール") {
            if words.hasAny("type", "typ") {
                role = .mailTransport
            } else if words.hasAny("display", "angezeigter", "affiché") {
                kind = .other
            } else {
                kind = .email
                label = words.place
            }
        } else if words.isPhone {
            kind = .phone
            label = Self.phoneLabel(words)
        } else if let part = words.addressPart {
            kind = .address(part)
            label = words.place
        } else if words.hasAny("priority", "priorität", "priorité", "sensitivity", "vertraulichkeit", "privat", "private", "gender", "geschlecht", "sexe") {
            role = .outlookFlag
        }
    }

    /// The parts of Google's numbered groups: `E-mail 1 - Value` is (`e-mail 1`, `value`).
    private static func googleGroup(_ header: String) -> (group: String, part: String)? {
        guard let dash = header.range(of: " - ") else { return nil }
        let group = String(header[..<dash.lowerBound])
        guard let last = group.split(separator: " ").last, Int(last) != nil else { return nil }
        return (group, String(header[dash.upperBound...]))
    }

    /// A column of Google's layouts: `Phone 1 - Value`, `Address 2 - City`, or Gmail 2007's
    /// `Section 1 - Mobile`.
    private init(google group: String, part: String, header: String) {
        self.header = header
        role = .value
        self.group = group
        multiple = true
        let name = group.split(separator: " ").dropLast().joined(separator: " ")
        switch (name, part) {
        case (_, "type"), ("section", "description"): role = .type
        case ("im", "service"): role = .service
        case ("e-mail", "value"), ("email", "value"), ("section", "email"): kind = .email
        case ("phone", "value"), ("section", "phone"): kind = .phone
        case ("section", "mobile"): (kind, label, self.group) = (.phone, .mobile, nil)
        case ("section", "pager"): (kind, label, self.group) = (.phone, .pager, nil)
        case ("section", "fax"): (kind, fax) = (.phone, true)
        case ("im", "value"), ("section", "im"): kind = .instantMessage
        case ("website", "value"): kind = .url
        case ("relation", "value"): kind = .relatedName
        case ("event", "value"): kind = .date
        case ("address", "formatted"), ("section", "address"): kind = .address(.formatted)
        case ("address", "street"), ("address", "po box"), ("address", "extended address"): kind = .address(.street)
        case ("address", "city"): kind = .address(.city)
        case ("address", "region"): kind = .address(.region)
        case ("address", "postal code"): kind = .address(.postcode)
        case ("address", "country"): kind = .address(.country)
        case ("organization", "name"), ("section", "company"): (kind, self.group) = (.organization, nil)
        case ("organization", "title"), ("section", "title"): (kind, self.group) = (.jobTitle, nil)
        case ("organization", "department"): (kind, self.group) = (.department, nil)
        case ("custom field", "value"): kind = .other
        default: (kind, self.group) = (.other, nil)
        }
    }

    /// The kinds a header names by its words alone (names, the company, dates, notes, related
    /// people, web pages, accounts), `nil` for e-mail, phone and address columns and the
    /// unknown.
    private static func simpleKind(_ words: Words, jobTitleColumn: Bool) -> FieldKind? {
        let text = words.lowered
        switch text {
        case "name", "display name", "formatted name", "full name", "anzeigename", "nom complet": return .displayName
        case "first", "first name", "given name", "vorname", "prénom", "名": return .givenName
        case "middle", "middle name", "additional name", "additional names", "weitere vornamen", "deuxième prénom",
            "ミドル ネーム":
            return .middleName
        case "last", "last name", "family name", "surname", "nachname", "nom", "姓": return .familyName
        case "title": return jobTitleColumn ? .namePrefix : .jobTitle
        case "nickname", "nick name", "nick", "spitzname", "surnom": return .nickname
        case "department", "abteilung", "service", "部署": return .department
        case "job title", "position", "fonction", "役職": return .jobTitle
        case "company", "organization", "organisation", "firma", "société", "entreprise", "会社名": return .organization
        case "group membership", "groups", "categories", "category", "kategorien", "catégories", "分類", "distribution lists":
            return .group
        case "notes", "note", "notizen", "comments", "comment", "メモ", "remarques": return .note
        case "anniversary", "jahrestag": return .date
        case "birthday", "geburtstag", "anniversaire", "誕生日": return .birthday
        case "birth year": return .birthdayPart(.year)
        case "birth month": return .birthdayPart(.month)
        case "birth day": return .birthdayPart(.day)
        default: break
        }
        if words.hasAny("yomi", "phonetic", "furigana") || text.contains("フリガナ") { return .phoneticName }
        if words.hasAny("prefix", "prefixes", "anrede", "titre") || text == "敬称" { return .namePrefix }
        if words.hasAny("suffix", "suffixes", "suffixe") { return .nameSuffix }
        if words.isPhone { return nil }
        if words.hasAny("spouse", "partner", "manager", "vorgesetzten", "assistant", "assistent", "kinder", "children") {
            return .relatedName
        }
        if words.hasAny("web", "website", "webpage", "homepage", "webseite", "url", "site") { return .url }
        if words.hasAny("im", "messenger", "screen", "chat", "jabber", "icq", "aim", "skype", "msn") { return .instantMessage }
        return nil
    }

    /// The label a header gives a value of `kind`.
    private static func label(of kind: FieldKind, _ words: Words) -> ExpectedLabel? {
        switch kind {
        case .relatedName:
            if words.hasAny("spouse", "partner") { return .custom("spouse") }
            if words.hasAny("manager", "vorgesetzten") { return .custom("manager") }
            if words.hasAny("assistant", "assistent") { return .custom("assistant") }
            return .custom("child")
        case .url:
            switch words.lowered {
            case "web page 1": return .work
            case "web page 2": return .homePage
            default: break
            }
            // A web page at home is a home page; a bare `Homepage` (KAddressBook) is the only web
            // page there is, with no type.
            if words.hasAll("home", "page") { return .homePage }
            if let place = words.place { return place == .home ? .homePage : place }
            let webWords = ["web", "website", "webpage", "homepage", "page", "webseite", "url", "site"]
            let rest = words.list.filter { !webWords.contains($0) }
            return rest.isEmpty || rest.allSatisfy({ Int($0) != nil }) ? nil : .custom(rest.joined(separator: " "))
        case .instantMessage:
            let services = ["aim", "icq", "jabber", "msn", "skype", "yahoo", "gadugadu", "qq", "xmpp"]
            return words.list.first(where: services.contains).map(ExpectedLabel.custom)
        case .date: return .anniversary
        default: return nil
        }
    }

    /// The type a phone column's header gives its numbers.
    private static func phoneLabel(_ words: Words) -> ExpectedLabel? {
        if words.hasAny("fax") || words.contains("ファクス") { return .fax(words.place) }
        if words.hasAny("pager") { return .pager }
        if words.hasAny("mobile", "mobil", "mobiltelefon", "handy", "portable") || words.contains("携帯") { return .mobile }
        let special: [(words: [String], label: String)] = [
            (["car", "autotelefon"], "car"), (["callback", "rückmeldung"], "callback"), (["isdn"], "isdn"),
            (["telex"], "telex"), (["radio"], "radio"), (["video"], "video"),
            (["assistant", "assistent"], "assistant"), (["yahoo"], "yahoo"),
        ]
        if let match = special.first(where: { words.hasAny($0.words) }) { return .custom(match.label) }
        if words.hasAny("tty", "hörbehinderte") { return ExpectedLabel(name: "TTY/TDD", accepted: ["tty", "ttytdd"]) }
        // A company's main number: the main number, a work number, or one labelled so.
        if words.hasAny("company", "firma") { return ExpectedLabel(name: "company main", accepted: ["main", "work", "companymain"]) }
        if words.hasAny("primary", "main", "haupttelefon") { return .main }
        return words.place
    }
}
