import DAVTestSupport
import Foundation
import PlainContacts
import PlainContactsDAV

/// `contacts-bench --serve`: CardDAV servers answering the requests a client's sync makes, on
/// the same collection of N generated cards, in one run: a Depth 1 `PROPFIND` of every ETag,
/// an `addressbook-multiget` of 500 cards, a `sync-collection` report after one card changed,
/// and a `PUT` of a changed card.
///
/// Requests go through ``RawHTTPConnection`` (one kept-alive connection, blocking sockets),
/// so the figures are the servers' own. Each server is filled and warmed before any timing;
/// each figure is the median of the runs, and every response is checked (status, and the
/// number of cards it lists) so that a fast wrong answer cannot pass for a fast right one.
struct ServeBench {
    let people: Int
    let runs: Int

    /// Cards one multiget asks for.
    static let multigetSize = 500

    /// A server under measurement: what the table calls it and how to reach its collection.
    struct Target {
        var name: String
        var port: Int
        var collectionPath: String
        var addressBookURL: URL
        var credentials: RemoteCredentials?
    }

    /// The requests timed, in the table's order.
    enum Operation: CaseIterable {
        case propfind, multiget, syncAfterChange, put

        var label: String {
            switch self {
            case .propfind: "PROPFIND Depth 1, every ETag"
            case .multiget: "addressbook-multiget of \(ServeBench.multigetSize) cards"
            case .syncAfterChange: "sync-collection after one change"
            case .put: "PUT of a changed card"
            }
        }
    }

    /// One server's medians, in seconds, by operation.
    struct Row {
        var server: String
        var seconds: [Operation: Double]
    }

    static func run(_ options: BenchOptions, source: CardSource) throws {
        guard let contacts = BenchSuite.contactsTool(options.contactsPath) else {
            throw ContactsError(.io, "the contacts tool was not found; build it or pass --contacts PATH")
        }
        let bench = ServeBench(people: options.sizes.first ?? 10_000, runs: options.runs)
        let workspace = try Workspace(keep: options.keep)
        defer { workspace.finish() }
        let cards = workspace.path("cards")
        _ = try source.writeDirectory(count: bench.people, to: cards)
        var rows: [Row] = []

        Progress.note("contacts serve: importing \(Format.count(bench.people)) cards into a new store")
        let store = try ServingStore.prepare(cards: cards, in: workspace, source: source, count: bench.people)
        var served = try ServingStore(contacts: contacts, store: store)
        // The first listing after the import makes every card; the store is given the two
        // seconds a file needs before its signature is trusted, as `warm()` does.
        Thread.sleep(forTimeInterval: 2.5)
        let firstListing = try bench.timeFirstListing(served.target)
        try served.warm()
        rows.append(try bench.measure(served.target))
        var peakKilobytes = served.peakKilobytes
        served.stop()
        // Right after a restart, the cards are known from the state file.
        var afterRestart: [Double] = []
        for _ in 0..<bench.runs {
            served = try ServingStore(contacts: contacts, store: store)
            afterRestart.append(try bench.timeFirstListing(served.target))
            peakKilobytes = max(peakKilobytes, served.peakKilobytes)
            served.stop()
        }
        print(
            "contacts serve on \(Format.count(bench.people)) cards: first PROPFIND Depth 1 after the import "
                + "\(Format.seconds(firstListing)); first after a restart \(Format.seconds(Sample(runs: afterRestart).median)) "
                + "(median of \(bench.runs)); peak memory \(peakKilobytes / 1024) MB")

        if options.books > 1 {
            let books = try bench.measureBooks(options.books, copying: store, contacts: contacts, in: workspace)
            print(booksTable(books, single: rows[0], people: bench.people, runs: bench.runs))
        }

        for kind in [DAVTestServer.Kind.radicale(password: nil), .xandikos] where options.peers {
            let name = if case .xandikos = kind { "Xandikos 0.4" } else { "Radicale 3.9" }
            Progress.note("\(name): filling the address book with \(Format.count(bench.people)) cards")
            let server = try DAVTestServer(kind)
            defer { server.stop() }
            try server.fill(from: cards)
            try server.warm()
            let target = Target(
                name: name, port: server.port, collectionPath: server.addressBookPath, addressBookURL: server.addressBookURL,
                credentials: server.credentials)
            rows.append(try bench.measure(target))
        }
        print(table(rows, people: bench.people, runs: bench.runs))
    }

    /// What one server serving several books measured: each book's row, the first listing of
    /// each right after the server started, and the server's peak memory.
    struct Books {
        var rows: [Row]
        var firstListings: [Double]
        var peakKilobytes: Int
    }

    /// Serves `count` copies of the store at `store` from one `contacts serve`, each a book of
    /// one user's, and times every book as the one store was, one after the other.
    ///
    /// - Throws: the copies', the users file's and the requests' errors.
    func measureBooks(_ count: Int, copying store: URL, contacts: String, in workspace: Workspace) throws -> Books {
        Progress.note("contacts serve: \(count) books of \(Format.count(people)) cards")
        let user = try ServerUserName("bench")
        let password = "bench-password"
        var books = [ServedBookReference(name: .home)]
        var stores = [store]
        for index in 2...count {
            let copy = workspace.path("book-\(index)")
            try FileManager.default.copyItem(at: store, to: copy)
            // The server's state is the first store's: each copy starts from none, as a store
            // served for the first time.
            try? FileManager.default.removeItem(at: copy.appending(path: ".contacts/carddav"))
            books.append(ServedBookReference(name: try ServedBookName("book-\(index)"), folder: copy))
            stores.append(copy)
        }
        try ServerUsersFile(storeURL: store).add(user, password: password, replacing: true, books: books)
        defer { try? ServerUsersFile(storeURL: store).remove(user) }
        // Every copy's files are given the seconds a file needs before its signature is trusted.
        Thread.sleep(forTimeInterval: 2.5)
        let served = try ServingStore(contacts: contacts, store: store)
        defer { served.stop() }
        let credentials = RemoteCredentials(user: user.rawValue, password: password)
        let targets = books.map { book in
            let path = "/\(user)/\(book.name)/"
            return Target(
                name: "book \(book.name)", port: served.port, collectionPath: path,
                addressBookURL: URL(string: "http://127.0.0.1:\(served.port)\(path)") ?? URL(fileURLWithPath: "/"),
                credentials: credentials)
        }
        // The password is checked once, on the principal, before any book is timed: its
        // derivation is the sign-in's cost, not a listing's.
        let signIn = try RawHTTPConnection(port: served.port).send(
            "PROPFIND", "/\(user)/", headers: ["Depth": "0", "Authorization": credentials.basicAuthorization])
        guard signIn.status == 207 else { throw ContactsError(.io, "signing in to the books gave \(signIn.status)") }
        var firstListings: [Double] = []
        for target in targets { firstListings.append(try timeFirstListing(target)) }
        var rows: [Row] = []
        for target in targets { rows.append(try measure(target)) }
        return Books(rows: rows, firstListings: firstListings, peakKilobytes: served.peakKilobytes)
    }

    /// The books' figures beside the one store's: the median, lowest and highest book.
    private static func booksTable(_ books: Books, single: Row, people: Int, runs: Int) -> String {
        var lines = [
            "One contacts serve with \(books.rows.count) books of \(Format.count(people)) cards (one user), each book timed "
                + "as the one store was, median of \(runs) per book; peak memory \(books.peakKilobytes / 1024) MB:",
            "",
            "| request | one store alone | books: median | books: lowest | books: highest |",
            "|---|---:|---:|---:|---:|",
        ]
        for operation in Operation.allCases {
            let figures = books.rows.compactMap { $0.seconds[operation] }.sorted()
            lines.append(
                "| \(operation.label) | \(Format.seconds(single.seconds[operation] ?? 0)) | "
                    + "\(Format.seconds(Sample(runs: figures).median)) | \(Format.seconds(figures.first ?? 0)) | "
                    + "\(Format.seconds(figures.last ?? 0)) |")
        }
        let first = books.firstListings.sorted()
        lines.append(
            "| first PROPFIND Depth 1 after the start | | \(Format.seconds(Sample(runs: first).median)) | "
                + "\(Format.seconds(first.first ?? 0)) | \(Format.seconds(first.last ?? 0)) |")
        return lines.joined(separator: "\n")
    }

    /// Times every operation `runs` times on one server.
    func measure(_ target: Target) throws -> Row {
        let book = try CardDAVAddressBook(url: target.addressBookURL, credentials: target.credentials)
        let hrefs = try book.listCards().map(\.href).sorted()
        guard hrefs.count >= people else {
            throw ContactsError(.io, "\(target.name) lists \(hrefs.count) cards instead of \(people)")
        }
        let connection = RawHTTPConnection(port: target.port)
        var headers = ["Content-Type": "application/xml; charset=utf-8"]
        if let credentials = target.credentials { headers["Authorization"] = credentials.basicAuthorization }
        var samples: [Operation: [Double]] = [:]
        for run in 0..<runs {
            Progress.note("\(target.name): run \(run + 1) of \(runs)")
            samples[.propfind, default: []].append(try timePropfind(target, connection, headers))
            let window = (0..<Self.multigetSize).map { hrefs[(run * Self.multigetSize + $0) % hrefs.count] }
            samples[.multiget, default: []].append(try timeMultiget(window, target, connection, headers))
            // A person's card, as a phone changes: the groups' names (their UIDs) sort first.
            samples[.syncAfterChange, default: []].append(
                try timeSyncAfterChange(of: hrefs[(hrefs.count / 3 + run) % hrefs.count], run: run, book, target, connection, headers))
            samples[.put, default: []].append(
                try timePut(of: hrefs[(hrefs.count / 2 + run) % hrefs.count], run: run, book, target, connection, headers))
        }
        return Row(server: target.name, seconds: samples.mapValues { Sample(runs: $0).median })
    }

    /// Times the first Depth 1 PROPFIND a server answers.
    func timeFirstListing(_ target: Target) throws -> Double {
        var headers = ["Content-Type": "application/xml; charset=utf-8"]
        if let credentials = target.credentials { headers["Authorization"] = credentials.basicAuthorization }
        return try timePropfind(target, RawHTTPConnection(port: target.port), headers)
    }

    private func timePropfind(
        _ target: Target, _ connection: RawHTTPConnection, _ headers: [String: String]
    ) throws -> Double {
        let body = Data(
            #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>"#.utf8)
        let (response, seconds) = try timed {
            try connection.send("PROPFIND", target.collectionPath, headers: headers.merging(["Depth": "1"]) { $1 }, body: body)
        }
        try check(response, 207, listing: people, of: "getetag>", target, "PROPFIND")
        return seconds
    }

    private func timeMultiget(
        _ hrefs: [String], _ target: Target, _ connection: RawHTTPConnection, _ headers: [String: String]
    ) throws -> Double {
        var xml = #"<?xml version="1.0" encoding="utf-8"?><c:addressbook-multiget xmlns:d="DAV:" "#
            + #"xmlns:c="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><c:address-data/></d:prop>"#
        for href in hrefs { xml += "<d:href>\(href)</d:href>" }
        xml += "</c:addressbook-multiget>"
        let (response, seconds) = try timed {
            try connection.send("REPORT", target.collectionPath, headers: headers.merging(["Depth": "1"]) { $1 }, body: Data(xml.utf8))
        }
        try check(response, 207, listing: hrefs.count, of: "BEGIN:VCARD", target, "addressbook-multiget")
        return seconds
    }

    private func timeSyncAfterChange(
        of href: String, run: Int, _ book: CardDAVAddressBook, _ target: Target, _ connection: RawHTTPConnection,
        _ headers: [String: String]
    ) throws -> Double {
        guard let token = try book.collectionState().syncToken else {
            throw ContactsError(.io, "\(target.name) offers no sync token")
        }
        try change(href, note: "synced \(run)", book, target)
        let xml = Self.syncCollectionBody(since: token)
        let (response, seconds) = try timed {
            try connection.send("REPORT", target.collectionPath, headers: headers, body: Data(xml.utf8))
        }
        try check(response, 207, listing: 1, of: "getetag>", target, "sync-collection")
        return seconds
    }

    private func timePut(
        of href: String, run: Int, _ book: CardDAVAddressBook, _ target: Target, _ connection: RawHTTPConnection,
        _ headers: [String: String]
    ) throws -> Double {
        guard let card = try book.fetchCards([href]).first else { throw ContactsError(.io, "\(target.name) lost \(href)") }
        let text = try Self.adding(note: "put \(run)", to: card, target)
        var putHeaders = headers
        putHeaders["Content-Type"] = "text/vcard; charset=utf-8"
        putHeaders["If-Match"] = card.etag
        let (response, seconds) = try timed {
            try connection.send("PUT", href, headers: putHeaders, body: Data(text.utf8))
        }
        guard response.status == 201 || response.status == 204 else {
            throw ContactsError(.io, "\(target.name) answered a PUT with \(response.status)")
        }
        return seconds
    }

    /// Adds a note to one card, as a phone would; not timed.
    private func change(_ href: String, note: String, _ book: CardDAVAddressBook, _ target: Target) throws {
        guard let card = try book.fetchCards([href]).first else { throw ContactsError(.io, "\(target.name) lost \(href)") }
        let text = try Self.adding(note: note, to: card, target)
        _ = try book.updateCard(at: href, data: Data(text.utf8), etag: card.etag)
    }

    /// The card's text with a `NOTE` line before its `END:VCARD`, whatever its line ends.
    private static func adding(note: String, to card: RemoteCard, _ target: Target) throws -> String {
        let text = String(decoding: card.data, as: UTF8.self)
        guard let end = text.range(of: "END:VCARD", options: [.backwards, .caseInsensitive]) else {
            throw ContactsError(.io, "\(target.name) sent a card without END:VCARD: \(card.href)")
        }
        return text[..<end.lowerBound] + "NOTE:\(note)\r\n" + text[end.lowerBound...]
    }

    /// Checks a response's status and that it lists at least `count` of `marker`.
    private func check(
        _ response: RawHTTPConnection.Response, _ status: Int, listing count: Int, of marker: String, _ target: Target,
        _ what: String
    ) throws {
        guard response.status == status else {
            throw ContactsError(.io, "\(target.name) answered \(what) with \(response.status) instead of \(status)")
        }
        let listed = String(decoding: response.body, as: UTF8.self).components(separatedBy: marker).count - 1
        guard listed >= count else {
            throw ContactsError(.io, "\(target.name) answered \(what) listing \(listed) instead of \(count)")
        }
    }

    private func timed<Value>(_ body: () throws -> Value) throws -> (Value, Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        return (value, (clock.now - start).seconds)
    }

    /// A `sync-collection` report asking for the ETags changed since `token` (every card for
    /// `nil`), as the benchmarks send it.
    static func syncCollectionBody(since token: String?) -> String {
        let escaped = (token ?? "").replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return #"<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>"#
            + escaped + "</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"
    }


    private static func table(_ rows: [Row], people: Int, runs: Int) -> String {
        // The ratio column only when there are other servers to compare with.
        let compared = rows.count > 1
        var lines = [
            "CardDAV requests on \(Format.count(people)) cards, one kept-alive connection, median of \(runs):",
            "",
            "| request | " + rows.map(\.server).joined(separator: " | ")
                + (compared ? " | faster of the others / \(rows.first?.server ?? "") |" : " |"),
            "|---|" + rows.map { _ in "---:|" }.joined() + (compared ? "---:|" : ""),
        ]
        for operation in Operation.allCases {
            let ours = rows.first?.seconds[operation] ?? 0
            let others = rows.dropFirst().compactMap { $0.seconds[operation] }
            let ratio = ours > 0 ? (others.min() ?? 0) / ours : 0
            lines.append(
                "| \(operation.label) | "
                    + rows.map { Format.seconds($0.seconds[operation] ?? 0) }.joined(separator: " | ")
                    + (compared ? " | " + String(format: "%.1f×", ratio) + " |" : " |"))
        }
        return lines.joined(separator: "\n")
    }
}

/// `contacts serve` running on a store for the server benchmarks, on a free loopback port.
final class ServingStore {
    /// How long the server may take to print its address.
    static let startTimeout: Duration = .seconds(60)

    let process: Process
    /// The server's port.
    let port: Int

    /// Starts `contacts serve --listen 127.0.0.1:0` on the store at `store`.
    ///
    /// - Throws: when the program does not start or prints no address in time.
    init(contacts: String, store: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: contacts)
        process.arguments = ["--store", store.path, "serve", "--listen", "127.0.0.1:0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The first line names the address: "Serving /store at http://127.0.0.1:PORT/".
        var printed = Data()
        let clock = ContinuousClock()
        let deadline = clock.now + Self.startTimeout
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty, clock.now < deadline else {
                process.terminate()
                throw ContactsError(.io, "contacts serve did not start: \(String(decoding: printed, as: UTF8.self))")
            }
            printed.append(chunk)
        }
        let line = String(decoding: printed, as: UTF8.self)
        guard let address = line.split(separator: " ").first(where: { $0.hasPrefix("http://") }),
            let url = URL(string: String(address.prefix { $0 != "\n" })), let port = url.port
        else {
            process.terminate()
            throw ContactsError(.io, "contacts serve printed no address: \(line)")
        }
        self.port = port
    }

    deinit {
        stop()
    }

    /// The server's resident high-water mark so far, in kilobytes (0 when unknown).
    var peakKilobytes: Int {
        ProcessMemory.highWaterMark(ofProcessAndChildren: process.processIdentifier) ?? 0
    }

    /// Stops the server with SIGTERM and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// A new store at `store` holding the same cards as the folder `cards`: generated again
    /// into one file (the generator is deterministic) and imported.
    ///
    /// - Throws: the generator's and the import's errors.
    static func prepare(cards: URL, in workspace: Workspace, source: CardSource, count: Int) throws -> URL {
        let file = workspace.path("cards.vcf")
        _ = try source.writeSingleFile(count: count, to: file)
        let store = workspace.path("served-store")
        _ = try PreparedStore.importCards(file, intoNewStoreAt: store)
        return store
    }

    /// Lists the collection once, so that the server reads the store before any timing.
    ///
    /// Files written less than 2 s before they are read are read again at the next listing
    /// (their modification time cannot yet tell a later write apart), as anywhere in the
    /// store; a store just imported is therefore given those seconds first, as a store that
    /// was not written this very moment has them.
    ///
    /// - Throws: the listing's errors.
    func warm() throws {
        Thread.sleep(forTimeInterval: 2.5)
        let book = try CardDAVAddressBook(url: target.addressBookURL, credentials: nil)
        _ = try book.collectionState()
        _ = try book.listCards()
    }

    /// The benchmark's target for this server.
    var target: ServeBench.Target {
        ServeBench.Target(
            name: "contacts serve", port: port, collectionPath: "/me/contacts/",
            addressBookURL: URL(string: "http://127.0.0.1:\(port)/me/contacts/") ?? URL(fileURLWithPath: "/"), credentials: nil)
    }
}
