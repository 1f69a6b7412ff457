import Testing

extension LibraryLayers {
    /// The store, from the bottom up.
    ///
    /// A folder may use only the layers beneath its own. There are no known violations, and
    /// none is to be added: a new folder is placed in the table, and an edge upward is cut (a
    /// lower layer that must call up declares a protocol, as the model's `RecordOwner`).
    static let store = LibraryLayers(
        library: "PlainContacts",
        layers: [
            // Record IDs and record types: the values errors and records name.
            ["Values"],
            // The error values every other layer throws: `ContactsError` and its codes,
            // `InterchangeError`, `SystemCallError`.
            ["Errors"],
            // The store's side of the system library beneath it: failed calls as `ContactsError`
            // values, the file types that throw them, timestamps, image formats.
            ["Internal"],
            // The store's side of the JSON codec beneath it: syntax errors as `ContactsError`.
            ["JSON"],
            // Names as text: composite names and their format, normalisation, sort keys and
            // orderings, name hashes, name and email matching. The model, the record format
            // and the index name and sort people with it.
            ["Search"],
            // People, groups, record keys, multi-values, dates and addresses; `RecordOwner`,
            // what a record asks of its book; `TextProperty`, the table of text properties the
            // formats read.
            ["Model"],
            // The record format: file names, the record coders, the vCard fields and origins a
            // record keeps, the manifest, the store's layout and its reader.
            ["Format"],
            // Store locks, transactions and their journal, on the system library's durable
            // files and locks.
            ["Writer"],
            // What the book is built from, none using another: the index of people, the
            // three-way merge of records, the watching of the store's folder, access consent,
            // long-term references to people.
            ["Index", "Merge", "Changes", "Access", "Reference"],
            // The address book: loading, saving, listing, groups, the doctor, a card applied to
            // a person.
            ["Book"],
            // vCard text, its mapping to people, and its import into a book.
            ["VCard"],
            // What is built on vCards and the book, none using another: the other contact file
            // formats (CSV, LDIF, mutt, abook, Eudora), the card mapping of records that CardDAV
            // serves and syncs, the editing of people as JSON.
            ["Interchange", "CardMapping", "Editing"],
            // Birthdays and anniversaries as iCalendar events, made from the card mapping.
            ["Calendar"],
        ],
        knownViolations: [])

    /// The network protocols on the store, from the bottom up.
    ///
    /// No known violations either, and none to be added.
    static let dav = LibraryLayers(
        library: "PlainContactsDAV",
        layers: [
            // Values that every layer shares, none using another: HTTP status codes, the
            // server's and the sync's error types, tab-separated state files, device-local
            // settings files and the system library's file types failing with the store's errors.
            ["HTTP", "Errors", "StateFiles"],
            // The generic WebDAV core: XML reading and writing.
            ["WebDAV"],
            // What the client and the server stand on, none using another: the HTTP client,
            // the HTTP server (sockets, parsing, limits, knowing no contacts), the server's
            // accounts.
            ["HTTPClient", "HTTPServer", "Accounts"],
            // The two ends, neither using the other: the CardDAV client (`contacts sync`) and
            // the CardDAV server (`contacts serve`).
            ["Sync", "Serve"],
        ],
        knownViolations: [])

    /// The library beneath the store, knowing nothing of contacts: the compiler keeps it so,
    /// since it depends on no other target.
    static let system = LibraryLayers(
        library: "PlainContactsSystem",
        layers: [
            // None using another: files, locks, durable writes, private files and file
            // signatures; SHA-256, HMAC, PBKDF2 and file fingerprints; parallel loops; the JSON
            // codec.
            ["Files", "Hashing", "Concurrency", "JSON"],
            // What a watcher of folders needs: inotify, a socket for its own user (named by a
            // hash when its path is too long), the record of what changed when.
            ["Watching"],
        ],
        knownViolations: [])

    static let all = [system, store, dav]
}

/// The folders of each library keep to its layers, read from the sources, so that no cycle
/// between folders can come back.
@Suite struct SourceLayersTests {
    @Test(arguments: LibraryLayers.all)
    func everyFolderHasALayer(_ table: LibraryLayers) throws {
        let folders = try table.graph().folders
        let placed = Set(table.layers.joined())
        for folder in folders.subtracting(placed).sorted() {
            Issue.record("\(table.library)/\(folder) has no layer: place it in the table of SourceLayersTests.swift")
        }
        for folder in placed.subtracting(folders).sorted() {
            Issue.record("the table places \(table.library)/\(folder), which holds no Swift file: remove it")
        }
        #expect(table.layers.joined().count == placed.count, "a folder is placed twice")
    }

    @Test(arguments: LibraryLayers.all)
    func noFolderUsesItsOwnLayerOrAbove(_ table: LibraryLayers) throws {
        let graph = try table.graph()
        let known = Set(table.knownViolations.map(\.edge))
        for edge in table.violations(in: graph) {
            let uses = graph.usesByFile(edge).map { "  \($0)" }.joined(separator: "\n")
            if known.contains(edge) {
                print("\(table.library): known violation \(edge):\n\(uses)")
                continue
            }
            let layers = [edge.from, edge.to].map { "\($0) is in layer \(table.layer(of: $0).map(String.init) ?? "?")" }
            let message = "\(table.library): \(edge) goes up or sideways (\(layers.joined(separator: ", "))); "
            Issue.record("\(message)cut these uses or move the files:\n\(uses)")
        }
    }

    @Test(arguments: LibraryLayers.all)
    func everyKnownViolationIsStillMade(_ table: LibraryLayers) throws {
        let violations = Set(table.violations(in: try table.graph()))
        for known in table.knownViolations where !violations.contains(known.edge) {
            Issue.record("\(table.library): \(known.edge) is no longer made: remove it from the known violations")
        }
    }

    @Test(arguments: LibraryLayers.all)
    func everyTypeNameIsDeclaredInOneFolder(_ table: LibraryLayers) throws {
        // A name declared in two folders hides the uses of both from the layering test.
        for (name, folders) in try table.graph().namesDeclaredInSeveralFolders.sorted(by: { $0.key < $1.key }) {
            Issue.record("\(table.library): \(name) is declared in \(folders.sorted().joined(separator: " and "))")
        }
    }
}
