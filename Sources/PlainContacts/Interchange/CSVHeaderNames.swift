/// The header names of the CSV layouts people export, in every language known here, and what
/// each column holds: the one table to extend when another export or translation turns up.
/// The headers of the text properties (names, organization, note…) are their entries'
/// ``TextProperty/csvHeaders``.
///
/// Headers are compared folded: case, accents, character width, spaces and punctuation do not
/// count ("E-mail 2 Address" is "email2address", "Straße geschäftlich" "strassegeschaftlich").
/// Google's numbered columns ("E-mail 1 - Label", "Address 2 - City") are read by their
/// pattern, in English, as Google writes them in every language.
///
/// Sources: Google Contacts' two CSV layouts; Outlook's and Outlook.com's export, in English,
/// German, French, Spanish, Italian, Dutch and Japanese; Thunderbird's CSV in English and
/// German; Yahoo, LinkedIn, and generic `Name,Email,Phone` sheets.
///
/// ```swift
/// CSVHeaderNames.field(for: "Mobiltelefon")        // .phone(.mobile)
/// CSVHeaderNames.field(for: "E-mail 2 - Value")    // .numbered(.email, index: 2, .value)
/// ```
enum CSVHeaderNames {
    /// What the column with this header holds, or `nil` for a header this table does not know
    /// (its cells are kept with the person under the header).
    static func field(for header: String) -> CSVField? {
        if let section = sectionField(header) { return section }
        if let numbered = numberedField(header) { return numbered }
        return fields[key(header)]
    }

    /// The folded form headers are compared in.
    static func key(_ header: String) -> String {
        String(NameNormalizer.normalize(header).replacing("ß", with: "ss").filter { $0.isLetter || $0.isNumber })
    }

    /// Outlook's default values, which say nothing: leaving them out loses nothing.
    static func isDefault(_ value: String, header: String) -> Bool {
        let value = value.lowercased()
        switch key(header) {
        case "priority", "sensitivity", "prioritat", "vertraulichkeit", "priorite", "sensibilite", "prioridad",
            "confidencialidad", "sensibilidad", "priorita", "riservatezza", "prioriteit", "vertrouwelijkheid":
            return value == "normal" || value == "normale" || value == "normaal" || value == "normalo"
        case "private", "privat", "prive", "privado", "privato", "priv":
            return value == "false" || value == "falsch" || value == "aus" || value == "faux" || value == "falso" || value == "onwaar"
        case "gender", "geschlecht", "sexe", "genero", "sesso", "geslacht":
            return value == "unspecified" || value == "nicht angegeben" || value == "keine angabe" || value == "non spécifié"
                || value == "no especificado" || value == "non specificato" || value == "niet opgegeven"
        case "emailtype", "email2type", "email3type", "emailtyp", "email2typ", "email3typ":
            return value == "smtp"
        default:
            return false
        }
    }

    // MARK: Google's numbered columns

    private static let numberedKinds: [String: CSVField.NumberedKind] = [
        "e-mail": .email, "email": .email, "phone": .phone, "address": .address, "organization": .organization,
        "relation": .relation, "website": .website, "event": .event, "custom field": .customField,
        "im": .instantMessage,
    ]

    private static let numberedParts: [String: CSVField.NumberedPart] = [
        "label": .label, "type": .label, "value": .value, "service": .service,
        "formatted": .address(.formatted), "street": .address(.street), "city": .address(.city),
        "po box": .address(.poBox), "region": .address(.region), "postal code": .address(.postalCode),
        "country": .address(.country), "extended address": .address(.extended),
        "name": .organizationName, "title": .organizationTitle, "department": .organizationDepartment,
    ]

    /// Reads "KIND N - PART", as "Address 2 - Postal Code".
    private static func numberedField(_ header: String) -> CSVField? {
        let parts = header.split(separator: " - ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let head = parts[0].trimmingPrefix(while: \.isWhitespace)
        guard let space = head.lastIndex(of: " "), let index = Int(head[head.index(after: space)...]) else {
            return nil
        }
        guard let kind = numberedKinds[head[..<space].lowercased()] else { return nil }
        let part = numberedParts[parts[1].lowercased().trimmingPrefix(while: \.isWhitespace).description] ?? .other
        return .numbered(kind, index: index, part)
    }

    /// Reads Gmail's 2007 "Section N - PART", as "Section 2 - Phone".
    private static func sectionField(_ header: String) -> CSVField? {
        let parts = header.split(separator: " - ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased().hasPrefix("section "),
            let index = Int(parts[0].dropFirst("section ".count))
        else { return nil }
        let part = CSVField.SectionPart(rawValue: parts[1].lowercased().filter { !$0.isWhitespace }) ?? .other
        return .section(index: index, part)
    }

    // MARK: The table

    private static let fields: [String: CSVField] = {
        var fields: [String: CSVField] = [:]
        for (field, names) in textTable + table {
            for name in names { fields[key(name)] = field }
        }
        return fields
    }()

    /// The headers of the text properties, which their entries list (``TextProperty/csvHeaders``).
    private static var textTable: [(CSVField, [String])] {
        TextProperty.all.map { (.text($0.id), $0.csvHeaders) }
    }

    private static let table: [(CSVField, [String])] = [
        // Outlook's name prefix, Yahoo's job title
        (.title, ["Title"]),
        // Dates, groups
        (.birthday, [
            "Birthday", "Birth Day", "Date of Birth", "Birthdate", "Geburtstag", "Geburtsdatum", "Anniversaire", "Date de naissance",
            "Cumpleaños", "Fecha de nacimiento", "Compleanno", "Data di nascita", "Verjaardag", "Geboortedatum",
            "誕生日",
        ]),
        (.birthYear, ["Birth Year", "Geburtsjahr", "Année de naissance", "Año de nacimiento", "Anno di nascita"]),
        (.birthMonth, ["Birth Month", "Geburtsmonat", "Mois de naissance", "Mes de nacimiento", "Mese di nascita"]),
        (.birthDay, ["Jour de naissance", "Día de nacimiento", "Giorno di nascita"]),
        (.anniversary, [
            "Anniversary", "Jahrestag", "Anniversaire de mariage ou fête", "Aniversario", "Anniversario", "Jubileum",
            "記念日",
        ]),
        (.groups, [
            "Categories", "Category", "Labels", "Group Membership", "Groups", "Kategorien", "Catégories",
            "Categorías", "Categorie", "Categorieën", "分類",
        ]),
        // Emails
        (.email(nil), [
            "E-mail Address", "E-mail 2 Address", "E-mail 3 Address", "Email", "E-mail", "Email Address",
            "Mail", "Primary Email", "Secondary Email", "Alternate Email 1", "Alternate Email 2",
            "E-Mail-Adresse", "E-Mail 2: Adresse", "E-Mail 3: Adresse", "Primäre E-Mail-Adresse",
            "Sekundäre E-Mail-Adresse", "Adresse de messagerie", "Adresse de messagerie 2", "Adresse de messagerie 3",
            "Adresse électronique principale", "Adresse électronique secondaire", "Dirección de correo electrónico",
            "Dirección de correo electrónico 2", "Dirección de correo electrónico 3",
            "Dirección del correo electrónico 3", "Indirizzo e-mail", "Indirizzo e-mail 2", "Indirizzo e-mail 3",
            "E-mailadres", "E-mailadres 2", "E-mailadres 3", "電子メール アドレス", "電子メール 2 アドレス",
            "電子メール 3 アドレス", "メールアドレス", "電子メール",
        ]),
        (.email(.home), ["Email Home", "Home Email", "Personal Email"]),
        (.email(.work), ["Email Work", "Work Email", "Business Email"]),
        (.email(.other), ["Email Other", "Other Email"]),
        // Phones
        (.phone(nil), [
            "Phone", "Phone Number", "Telephone", "Telefon", "Téléphone", "Teléfono", "Telefono", "Telefoon", "電話番号",
        ]),
        (.phone(.mobile), [
            "Mobile Phone", "Mobile", "Mobile Number", "Cell", "Cell Phone", "Home Mobile", "Mobiltelefon", "Mobiltelefon 2",
            "Mobil-Tel.-Nr.", "Tél. mobile", "Téléphone mobile", "Portable", "Teléfono móvil", "Móvil", "Cellulare",
            "Telefono cellulare", "Numero cellulare", "Mobiele telefoon", "携帯電話",
        ]),
        (.phone(.home), [
            "Home Phone", "Home Phone 2", "Home", "Telefon privat", "Telefon privat 2", "Tel. privat",
            "Téléphone (domicile)", "Téléphone 2 (domicile)", "Teléfono particular", "Teléfono particular 2",
            "Particular", "Telefono abitazione", "Telefono abitazione 2", "Telefono di casa", "Telefoon thuis",
            "Telefoon thuis 2", "自宅電話", "自宅電話 2",
        ]),
        (.phone(.work), [
            "Business Phone", "Business Phone 2", "Work Phone", "Work", "Telefon geschäftlich",
            "Telefon geschäftlich 2", "Tel. dienstlich", "Téléphone (bureau)", "Téléphone 2 (bureau)",
            "Tél. professionnel", "Teléfono del trabajo", "Teléfono del trabajo 2", "Telefono ufficio",
            "Telefono ufficio 2", "Telefono di lavoro", "Telefoon op werk", "Telefoon op werk 2", "Work Phone 2", "会社電話",
            "会社電話 2",
        ]),
        (.phone(.homeFax), [
            "Home Fax", "Fax privat", "Télécopie (domicile)", "Fax particular", "Fax abitazione", "Fax thuis", "自宅 FAX",
        ]),
        (.phone(.workFax), [
            "Business Fax", "Work Fax", "Fax Number", "Fax-Nummer", "Fax geschäftlich", "Télécopie (bureau)",
            "Fax del trabajo", "Fax ufficio", "Fax op werk", "会社 FAX",
        ]),
        (.phone(.otherFax), [
            "Other Fax", "Fax", "Weiteres Fax", "Télécopie (autre)", "Otro fax", "Altro fax", "Andere fax", "その他の FAX",
        ]),
        (.phone(.pager), [
            "Pager", "Pager Number", "Pager-Nummer", "Récepteur de radiomessagerie", "Buscapersonas", "Cercapersone",
            "Numero pager", "Pieper", "ポケットベル",
        ]),
        (.phone(.main), [
            "Primary Phone", "Main", "Haupttelefon", "Téléphone principal", "Teléfono principal",
            "Telefono principale", "Hoofdtelefoon", "通常使う電話",
        ]),
        (.phone(.other), [
            "Other Phone", "Other", "Weiteres Telefon", "Téléphone (autre)", "Otro teléfono", "Altro telefono",
            "Overige telefoon", "その他の電話",
        ]),
        (.phone(Label("company main")), [
            "Company Main Phone", "Telefon Firma", "Téléphone société", "Teléfono de la compañía",
            "Telefono principale società", "Hoofdtelefoon bedrijf", "会社代表電話",
        ]),
        (.phone(Label("car")), ["Car Phone", "Autotelefon", "Téléphone (voiture)", "Teléfono del automóvil", "Telefono auto", "Autotelefoon", "自動車電話"]),
        (.phone(Label("assistant")), ["Assistant's Phone", "Telefon Assistent", "Téléphone de l'assistant(e)", "Teléfono del ayudante", "Telefono assistente", "Telefoon assistent", "アシスタントの電話"]),
        (.phone(Label("callback")), ["Callback", "Rückmeldung", "Rappel", "Devolución de llamada", "Richiamata", "Terugbelnummer", "コールバック"]),
        (.phone(Label("ISDN")), ["ISDN"]),
        (.phone(Label("radio")), ["Radio Phone", "Funktelefon", "Radiotéléphone", "Radioteléfono", "Radiotelefono", "Radiotelefoon", "無線"]),
        (.phone(Label("telex")), ["Telex", "Télex", "テレックス"]),
        (.phone(Label("video")), ["Phone Video", "Video Phone"]),
        (.phone(Label("TTY/TDD")), ["TTY/TDD Phone", "Telefon für Hörbehinderte", "Téléphone TDD/TTY", "Teléfono TTY/TDD", "Telefono TTY/TDD", "Teksttelefoon", "TTY/TDD"]),
        // Web
        (.url(nil), [
            "Web Page", "Website", "Homepage", "Web Site", "URL", "Webseite", "Webseite 1", "Page Web", "Página web", "Pagina web",
            "Webpagina", "Web ページ", "Profile URL",
        ]),
        (.url(.homePage), ["Personal Web Page", "Personal Website", "Website Home Page", "Web Page 2", "Webseite 2"]),
        (.url(.work), ["Business Website", "Website Work", "Web Page 1"]),
        (.url(Label("blog")), ["Website Blog", "Blog"]),
        (.url(Label("profile")), ["Website Profile"]),
        (.url(.other), ["Website Other"]),
        // People
        (.related(.spouse), ["Spouse", "Ehepartner", "Partner", "Conjoint(e)", "Cónyuge", "Coniuge", "Echtgenoot/partner", "配偶者"]),
        (.related(.manager), ["Manager's Name", "Manager", "Vorgesetzte(r)", "Name des Vorgesetzten", "Name des/r Vorgesetzten", "Nom du supérieur", "Nombre del jefe", "Nome del responsabile", "Naam manager", "上司名"]),
        (.related(.assistant), ["Assistant's Name", "Assistent(in)", "Name Assistent", "Nom de l'assistant(e)", "Nombre del ayudante", "Nome dell'assistente", "Naam assistent", "アシスタント名"]),
        (.related(.child), ["Children", "Kinder", "Enfants", "Hijos", "Figli", "Kinderen", "子供"]),
        // Instant messaging
        (.instantMessage(nil), ["Screen Name", "Chat Name", "Messenger ID", "IM Address", "IMAddress", "Chatname", "Nom d'utilisateur de chat"]),
        (.instantMessage("AIM"), ["IM Aim", "AIM Screen Name"]),
        (.instantMessage("ICQ"), ["IM Icq"]),
        (.instantMessage("Jabber"), ["IM Jabber"]),
        (.instantMessage("MSN"), ["IM Msn"]),
        (.instantMessage("Skype"), ["IM Skype"]),
        (.instantMessage("Yahoo"), ["IM Yahoo"]),
    ] + addressTable

    /// Address columns: (label, part, names) spread into the table.
    private static var addressTable: [(CSVField, [String])] {
        let work: [(CSVField.AddressPart, [String])] = [
            (.street, [
                "Business Street", "Business Address Street", "Geschäftsadresse Straße", "Work Address", "Work Street", "Straße geschäftlich", "Rue (bureau)",
                "Calle del trabajo", "Via (uff.)", "Indirizzo di lavoro", "Werkadres straat", "番地 (会社)",
                "Dienstlich: Adresse", "Adresse professionnelle", "Dirección de trabajo",
            ]),
            (.street2, [
                "Business Street 2", "Work Address 2", "Straße geschäftlich 2", "Rue (bureau) 2", "Calle del trabajo 2",
                "Via (uff.) 2", "Indirizzo di lavoro 2", "Werkadres straat 2", "番地 2 (会社)",
            ]),
            (.street3, [
                "Business Street 3", "Straße geschäftlich 3", "Rue (bureau) 3", "Calle del trabajo 3", "Via (uff.) 3",
                "Werkadres straat 3", "番地 3 (会社)",
            ]),
            (.city, [
                "Business City", "Business Address City", "Geschäftsadresse Ort", "Work City", "Ort geschäftlich", "Ville (bureau)", "Ciudad de trabajo", "Città (uff.)",
                "Città di lavoro", "Werkadres plaats", "市区町村 (会社)", "市町村 (会社)",
            ]),
            (.region, [
                "Business State", "Business Address Region", "Geschäftsadresse Bundesland", "Work State", "Region geschäftlich", "Bundesland/Kanton geschäftlich",
                "Dép/Région (bureau)", "Provincia o estado de trabajo", "Provincia (uff.)", "Provincia di lavoro",
                "Werkadres provincie", "都道府県 (会社)",
            ]),
            (.postalCode, [
                "Business Postal Code", "Business Address Post Code", "Geschäftsadresse Postleitzahl", "Work ZipCode", "Work Zip", "Work ZIP", "Postleitzahl geschäftlich",
                "Dienstlich: PLZ", "Code postal (bureau)", "Código postal del trabajo", "CAP (uff.)", "CAP di lavoro",
                "Werkadres postcode", "郵便番号 (会社)",
            ]),
            (.country, [
                "Business Country/Region", "Business Country", "Business Address Country", "Geschäftsadresse Land", "Work Country", "Land/Region geschäftlich",
                "Land geschäftlich", "Dienstlich: Land", "Pays/Région (bureau)", "País o región del trabajo",
                "Paese/area geografica (uff.)", "Nazione di lavoro", "Werkadres land/regio", "国/地域 (会社)", "国 (会社)",
            ]),
            (.poBox, [
                "Business Address PO Box", "Postfach geschäftlich", "B.P. professionnelle", "Apartado postal del trabajo",
                "Casella postale (uff.)", "Postbus werk", "私書箱 (会社)",
            ]),
        ]
        let home: [(CSVField.AddressPart, [String])] = [
            (.street, [
                "Home Street", "Home Address Street", "Privatanschrift Straße", "Home Address", "Straße privat", "Privat: Adresse", "Rue (domicile)", "Adresse privée",
                "Calle del domicilio", "Dirección personal", "Via (ab.)", "Indirizzo di casa", "Huisadres straat",
                "番地 (自宅)",
            ]),
            (.street2, [
                "Home Street 2", "Home Address 2", "Straße privat 2", "Rue (domicile) 2", "Calle del domicilio 2",
                "Via (ab.) 2", "Indirizzo di casa 2", "Huisadres straat 2", "番地 2 (自宅)",
            ]),
            (.street3, [
                "Home Street 3", "Straße privat 3", "Rue (domicile) 3", "Calle del domicilio 3", "Via (ab.) 3",
                "Huisadres straat 3", "番地 3 (自宅)",
            ]),
            (.city, [
                "Home City", "Home Address City", "Privatanschrift Ort", "Ort privat", "Ville (domicile)", "Ciudad de residencia", "Città (ab.)",
                "Città di residenza", "Huisadres plaats", "市区町村 (自宅)", "市町村 (自宅)",
            ]),
            (.region, [
                "Home State", "Home Address Region", "Privatanschrift Bundesland", "Region privat", "Bundesland/Kanton privat", "Dép/Région (domicile)",
                "Provincia o estado de residencia", "Provincia (ab.)", "Provincia di residenza", "Huisadres provincie",
                "都道府県 (自宅)",
            ]),
            (.postalCode, [
                "Home Postal Code", "Home Address Post Code", "Privatanschrift Postleitzahl", "Home ZipCode", "Home Zip", "Home ZIP", "Postleitzahl privat", "Privat: PLZ",
                "Code postal (domicile)", "Código postal de residencia", "CAP (ab.)", "CAP di casa",
                "CAP di residenza", "Huisadres postcode", "郵便番号 (自宅)",
            ]),
            (.country, [
                "Home Country/Region", "Home Country", "Home Address Country", "Privatanschrift Land", "Land/Region privat", "Land privat", "Privat: Land",
                "Pays/Région (domicile)", "País o región de residencia", "País de residencia",
                "Paese/area geografica (ab.)", "Nazione/Regione di casa", "Nazione di residenza",
                "Huisadres land/regio", "国/地域 (自宅)", "国 (自宅)",
            ]),
            (.poBox, [
                "Home Address PO Box", "Postfach privat", "B.P. (domicile)", "Apartado postal del domicilio",
                "Casella postale (ab.)", "Postbus thuis", "私書箱 (自宅)",
            ]),
        ]
        let other: [(CSVField.AddressPart, [String])] = [
            (.street, [
                "Other Street", "Weitere Straße", "Rue (autre)", "Otra calle", "Altra via", "Via Altro",
                "Ander adres straat", "番地 (その他)",
            ]),
            (.street2, ["Other Street 2", "Weitere Straße 2", "Rue (autre) 2", "Otra calle 2", "Altra via 2", "Ander adres straat 2"]),
            (.street3, ["Other Street 3", "Weitere Straße 3", "Rue (autre) 3", "Otra calle 3", "Altra via 3", "Ander adres straat 3"]),
            (.city, ["Other City", "Weiterer Ort", "Ville (autre)", "Otra ciudad", "Altra città", "Città Altro", "Ander adres plaats", "市区町村 (その他)", "市町村 (その他)"]),
            (.region, [
                "Other State", "Weitere Region", "Weiteres Bundesland/Kanton", "Weiteres/r Bundesland/Kanton", "Dép/Région (autre)",
                "Otra provincia o estado", "Altra provincia", "Ander adres provincie", "都道府県 (その他)",
            ]),
            (.postalCode, [
                "Other Postal Code", "Weitere Postleitzahl", "Code postal (autre)", "Otro código postal", "Altro CAP",
                "Ander adres postcode", "郵便番号 (その他)",
            ]),
            (.country, [
                "Other Country/Region", "Other Country", "Weiteres Land/Region", "Weiteres/e Land/Region", "Weiteres Land", "Pays/Région (autre)",
                "Otro país o región", "Altro paese/area geografica", "Ander adres land/regio", "国/地域 (その他)",
            ]),
            (.poBox, ["Other Address PO Box", "Weiteres Postfach", "B.P. (autre)", "Otro apartado postal", "Altra casella postale", "Postbus overig"]),
        ]
        let generic: [(CSVField.AddressPart, [String])] = [
            (.formatted, ["Address", "Adresse", "Anschrift", "Dirección", "Indirizzo", "Adres", "住所"]),
            (.city, ["City", "Stadt", "Ville", "Ciudad", "Città", "Plaats", "市区町村"]),
            (.region, ["State", "Region", "Province", "Bundesland", "Provincia", "Provincie", "都道府県"]),
            (.postalCode, ["Postal Code", "Zip", "ZIP Code", "Postcode", "PLZ", "Postleitzahl", "Code postal", "Código postal", "CAP", "郵便番号"]),
            (.country, ["Country", "Land", "Pays", "País", "Paese", "国"]),
        ]
        return work.map { (.address(.work, $0.0), $0.1) } + home.map { (.address(.home, $0.0), $0.1) }
            + other.map { (.address(.other, $0.0), $0.1) } + generic.map { (.address(nil, $0.0), $0.1) }
    }
}
