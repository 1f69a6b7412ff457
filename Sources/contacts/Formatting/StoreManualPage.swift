/// `contacts-store(5)`: the files of a store, in short, for those who edit a record by hand
/// or read the folder from another program. The store format article of the documentation
/// (StoreFormat in the PlainContacts catalog) is the full specification.
enum StoreManualPage {
    /// The page.
    static var page: ManualPage {
        var page = ManualPage(name: "contacts-store", section: 5, summary: "the files of a contacts store")
        page.add(
            "SYNOPSIS",
            [
                .literal([
                    "STORE/store.json", "STORE/people/KEY.json", "STORE/people/KEY.jpg", "STORE/groups/KEY.json",
                    "STORE/groups/KEY.members", "STORE/.gitignore", "STORE/.gitattributes", "STORE/.contacts/",
                ])
            ])
        page.add(
            "DESCRIPTION",
            [
                .paragraph(
                    """
                    A store is a folder that contacts(1) keeps an address book in: one JSON file per
                    person and per group, written so that Git merges and diffs them well and a text
                    editor can change them. Every file is canonical: keys sorted by their UTF-8
                    bytes, two spaces of indentation, one property or element per line, LF line
                    ends and a final newline, non-ASCII text as it is, slashes unescaped. A save
                    rewrites only the records that changed; an unchanged record keeps its bytes.
                    """),
                .paragraph(
                    """
                    A record's KEY is chosen when it is first saved and never changes, even when the
                    person is renamed: a slug of the name and six random characters, such as
                    katie-bell-9dw42k. Files are replaced by writing a new file beside them,
                    flushing it and renaming it over the old one, under the lock in .contacts/.
                    """),
            ])
        page.add(
            "FILES",
            [
                .item(
                    term: "store.json", argument: nil,
                    text: """
                        The manifest: format (the format version; a newer one is refused),
                        sortOrdering (firstName or lastName), compositeNameFormat, autoCommit (true
                        to commit every change to Git, as --commit does) and autoPush (true to push
                        each commit contacts serve makes to the Git remote, as serve --push does).
                        Missing keys read as their defaults; unknown keys are kept.
                        """),
                .item(
                    term: "people/KEY.json", argument: nil,
                    text: """
                        A person: id (the record ID, 1 to 2147483647), the name and other text
                        properties under their names (firstName, lastName, organization, note, …),
                        birthday (YYYY-MM-DD, or --MM-DD without a year), the multi-values (phones,
                        emails, urls, addresses, dates, relatedNames, instantMessages,
                        socialProfiles) as arrays of objects with id, label and value, nextValueID,
                        nameHash, created and modified (UTC). Keys written by other programs are kept.
                        """),
                .item(term: "people/KEY.jpg", argument: nil, text: "The person's image, its original bytes (or .png, .gif, .heic)."),
                .item(term: "groups/KEY.json", argument: nil, text: "A group: id, name, created and modified."),
                .item(
                    term: "groups/KEY.members", argument: nil,
                    text: "The group's members: person keys, one per line, sorted by their bytes, each line ending in LF."),
                .item(
                    term: ".gitattributes", argument: nil,
                    text: "Names the record merge driver for every file and a diff helper for .json (see contacts git-setup)."),
                .item(term: ".gitignore", argument: nil, text: "Ignores .contacts/."),
                .item(
                    term: ".contacts/", argument: nil,
                    text: """
                        Device-local and never committed: the lock, the index (a cache that may be
                        deleted), the record IDs this device handed out, access consent, remotes
                        (remotes.json, mode 0600, no passwords) and their sync status, the users of
                        contacts serve (users.json, mode 0600, password hashes), the state of its
                        CardDAV address book, the commits and pushes contacts serve has still to
                        make (serve-uncommitted, serve-unpushed), and the lock and socket of contacts
                        watch (watch.lock, watch.socket) with the token at which the index last
                        vouched for every file (index.watch).
                        """),
            ])
        page.add(
            "EXAMPLES",
            [
                .paragraph("A person, people/katie-bell-9dw42k.json:"),
                .literal([
                    "{", "  \"firstName\": \"Katie\",", "  \"id\": 1,", "  \"lastName\": \"Bell\",", "  \"nextValueID\": 1,",
                    "  \"phones\": [", "    {", "      \"id\": 0,", "      \"label\": \"mobile\",", "      \"value\": \"555-0100\"",
                    "    }", "  ]", "}",
                ]),
            ])
        page.add("SEE ALSO", [.references([("contacts", 1), ("contacts-git-setup", 1), ("gitattributes", 5)])])
        return page
    }
}
