/// The text properties of a person and where each format puts them: the one table to extend
/// when a person gains a text property (see the article "Adding a property").
extension TextProperty {
    /// Every text property of a person. Within a ``Section``, a card's lines are written in
    /// this order.
    static let all: [TextProperty] = [
        // Names: N and FN, the nickname, the readings of the name.
        TextProperty(
            .firstName, .name, vCard: .component(of: "N", at: 1),
            csv: ["First Name", "Given Name", "First", "Firstname", "Vorname", "Prénom", "Nombre", "Nome", "Voornaam", "名"],
            csvSeparator: " ", google: "First Name", outlook: "First Name", ldif: LDIFName("givenName", aliases: ["gn"])),
        TextProperty(
            .lastName, .name, vCard: .component(of: "N", at: 0),
            csv: [
                "Last Name", "Family Name", "Familienname", "Surname", "Last", "Lastname", "Nachname", "Nom", "Apellidos",
                "Apellido", "Cognome", "Achternaam", "姓",
            ],
            csvSeparator: " ", google: "Last Name", outlook: "Last Name", ldif: LDIFName("sn", aliases: ["surname"])),
        TextProperty(
            .middleName, .name, vCard: .component(of: "N", at: 2),
            csv: [
                "Middle Name", "Additional Name", "Additional Names", "Zusätzliche Namen", "Middle", "Weitere Vornamen",
                "Zweiter Vorname", "Deuxième prénom", "Segundo nombre", "Secondo nome", "Tweede voornaam", "Tweede naam",
                "ミドル ネーム",
            ],
            csvSeparator: " ", google: "Middle Name", outlook: "Middle Name"),
        TextProperty(
            .prefix, .name, vCard: .component(of: "N", at: 3),
            csv: [
                "Name Prefix", "Prefix", "Honorific Prefixes", "Höflichkeitspräfixe", "Anrede", "Titre", "Tratamiento",
                "Titolo", "Titel", "Aanhef", "敬称",
            ],
            csvSeparator: " ", google: "Name Prefix", outlook: "Title"),
        TextProperty(
            .suffix, .name, vCard: .component(of: "N", at: 4),
            csv: [
                "Name Suffix", "Suffix", "Honorific Suffixes", "Höflichkeitssuffixe", "Namenszusatz", "Suffixe", "Sufijo",
                "Suffisso", "Achtervoegsel", "サフィックス", "敬称 (英語)",
            ],
            csvSeparator: " ", google: "Name Suffix", outlook: "Suffix"),
        TextProperty(
            .formattedName, .name, vCard: .formattedName,
            csv: [
                "Name", "Display Name", "Full Name", "Formatted Name", "Formatierter Name", "File As", "Contact Name",
                "Anzeigename", "Vollständiger Name", "Nom à afficher", "Nom complet", "Nombre para mostrar",
                "Nombre completo", "Nome visualizzato", "Nome completo", "Weergavenaam", "Volledige naam", "表示名", "氏名",
                "名前",
            ],
            google: "File As", ldif: LDIFName("cn", aliases: ["commonName"])),
        TextProperty(
            .nickname, .name, vCard: .text("NICKNAME", .list(", ")),
            csv: ["Nickname", "Nick", "Nick Name", "Spitzname", "Surnom", "Apodo", "Soprannome", "Bijnaam", "ニックネーム"],
            csvSeparator: " ", google: "Nickname", outlook: "Nickname",
            ldif: LDIFName("mozillaNickname", aliases: ["xmozillanickname"])),
        TextProperty(
            .firstNamePhonetic, .name, vCard: .text("X-PHONETIC-FIRST-NAME", .once),
            csv: ["Phonetic First Name", "Given Name Yomi", "Given Yomi", "First Name Yomi", "フリガナ (名)", "名 (フリガナ)"],
            google: "Phonetic First Name", outlook: "Given Yomi"),
        TextProperty(
            .middleNamePhonetic, .name, vCard: .text("X-PHONETIC-MIDDLE-NAME", .once),
            csv: ["Phonetic Middle Name", "Additional Name Yomi"], google: "Phonetic Middle Name"),
        TextProperty(
            .lastNamePhonetic, .name, vCard: .text("X-PHONETIC-LAST-NAME", .once),
            csv: ["Phonetic Last Name", "Family Name Yomi", "Surname Yomi", "Last Name Yomi", "フリガナ (姓)", "姓 (フリガナ)"],
            google: "Phonetic Last Name", outlook: "Surname Yomi"),
        // Work: ORG and the job title.
        TextProperty(
            .organization, .work, vCard: .component(of: "ORG", at: 0),
            csv: [
                "Organization Name", "Organization", "Organisation", "Company", "Work Company", "Firma", "Société",
                "Compañía", "Empresa", "Organización", "Società", "Azienda", "Organizzazione", "Bedrijf", "Organisatie",
                "会社名", "会社",
            ],
            google: "Organization Name", outlook: "Company", ldif: LDIFName("o", aliases: ["company"])),
        TextProperty(
            .organizationPhonetic, .work, vCard: .text("X-PHONETIC-ORG", .once),
            csv: ["Company Yomi", "Organization Phonetic Name"], outlook: "Company Yomi"),
        TextProperty(
            .department, .work, vCard: .component(of: "ORG", at: 1),
            csv: [
                "Organization Department", "Department", "Work Dept", "Abteilung", "Service", "Departamento", "Reparto",
                "Afdeling", "部署",
            ],
            google: "Organization Department", outlook: "Department",
            ldif: LDIFName("ou", aliases: ["department", "orgunit", "departmentnumber"])),
        TextProperty(
            .jobTitle, .work, vCard: .text("TITLE", .firstOfSeveral),
            csv: [
                "Organization Title", "Job Title", "Position", "Work Title", "Fonction", "Puesto", "Cargo", "Qualifica",
                "Posizione", "Functie", "役職",
            ],
            google: "Organization Title", outlook: "Job Title", ldif: LDIFName("title")),
        // After everything else.
        TextProperty(
            .note, .notes, vCard: .text("NOTE", .joined("\n\n")),
            csv: ["Notes", "Note", "Comments", "Info", "Notizen", "Notas", "Notities", "Opmerkingen", "メモ"],
            csvSeparator: "\n", google: "Notes", outlook: "Notes", ldif: LDIFName("description", aliases: ["notes"])),
    ]

    /// The order of Google's columns: the name and work columns before "Birthday", the notes
    /// after it.
    static let googleOrder: [PropertyID] = [
        .firstName, .middleName, .lastName, .firstNamePhonetic, .middleNamePhonetic, .lastNamePhonetic, .prefix,
        .suffix, .nickname, .formattedName, .organization, .jobTitle, .department, .note,
    ]

    /// The order of Outlook's columns: the name and work columns first, the notes after
    /// "Manager's Name".
    static let outlookOrder: [PropertyID] = [
        .prefix, .firstName, .middleName, .lastName, .suffix, .nickname, .firstNamePhonetic, .lastNamePhonetic,
        .organization, .organizationPhonetic, .department, .jobTitle, .note,
    ]

    /// The order of a person's LDIF attributes: the names first (`cn` written from the
    /// composite name when the formatted name is absent), the work ones after the addresses,
    /// the notes after the birthday.
    static let ldifOrder: [PropertyID] = [
        .firstName, .lastName, .formattedName, .nickname, .jobTitle, .department, .organization, .note,
    ]
}
