/// Why a value of an export is left out of the import fidelity counts: it carries no contact
/// data, or it is counted otherwise (a type cell is the label of its value).
///
/// Every excluded value is counted by its reason, and the output lists the reasons.
enum Exclusion: String, CaseIterable {
    /// An empty cell, attribute or tag, such as Thunderbird's trailing empty column.
    case empty
    /// A type cell (Google's `E-mail 1 - Type`, a Gmail 2007 section's `Description`, an IM's
    /// service): counted as the label of its value, not as a field.
    case typeCell
    /// Google's `* My Contacts` (`* myContacts`): the system group every Google contact is in,
    /// not one its owner made.
    case googleSystemGroup
    /// Outlook's defaults, written in every row whatever the contact: the date `0.0.00`,
    /// `Normal` priority and sensitivity, `Aus`/`False` private, `Keine Angabe`/`Nicht
    /// angegeben`/`Unspecified` gender.
    case outlookDefault
    /// Outlook's e-mail address type (`SMTP`): how mail is sent, not a value of the contact.
    case mailTransport
    /// LDIF's `dn`, `objectclass`, `changetype` and time stamps: the directory's bookkeeping
    /// (the name and address a `dn` repeats are counted from `cn` and `mail`).
    case directoryBookkeeping
    /// abook's `[format]` section: the program and version that wrote the file.
    case fileHeader
    /// Eudora's `<primary:…>` tag: names which of the entry's own values comes first and holds
    /// none itself.
    case primaryMarker

    /// What the output says of the reason.
    var explanation: String {
        switch self {
        case .empty: "empty cells, attributes and tags (such as Thunderbird's trailing empty column)"
        case .typeCell: "type cells (Google's `… - Type`, Gmail 2007's `Section N - Description`, IM services): counted as labels of their values"
        case .googleSystemGroup: "Google's `* My Contacts` group membership, which every Google contact has"
        case .outlookDefault: "Outlook's defaults written in every row (`0.0.00` dates, `Normal` priority and sensitivity, `Aus` private, `Keine Angabe` gender)"
        case .mailTransport: "Outlook's e-mail type `SMTP`: how mail is sent, not contact data"
        case .directoryBookkeeping: "LDIF `dn`, `objectclass`, `changetype` and time stamps: directory bookkeeping (a `dn`'s name and address are counted from `cn` and `mail`)"
        case .fileHeader: "abook's `[format]` section: the program that wrote the file"
        case .primaryMarker: "Eudora's `<primary:…>` tag: points at another value, holds none"
        }
    }
}
