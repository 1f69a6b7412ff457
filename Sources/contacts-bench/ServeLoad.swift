import DAVTestSupport
import Foundation
import PlainContacts
import PlainContactsDAV
import Synchronization

/// `contacts-bench --serve-load`: many clients at once, each on its own kept-alive connection,
/// sending a sync's mix of requests to a CardDAV server for a fixed time, while an optional
/// editor changes the store beside the server; then a check that nothing was lost.
///
/// Each client owns a share of the cards: only it writes them, with `If-Match` on the ETag it
/// last saw, so the last change the server acknowledged for each card is known and must be
/// what the server serves afterwards. Clients also create cards of their own (`If-None-Match:
/// *`), which must all exist afterwards. Any 5xx, failed connection or lost write is reported.
struct ServeLoad {
    let clients: Int
    let duration: Duration

    /// What one request was, for the latency table.
    enum Kind: String, CaseIterable, Sendable {
        case propfindCollection = "PROPFIND Depth 0"
        case propfindEtags = "PROPFIND Depth 1"
        case multiget = "REPORT multiget (20)"
        case syncCollection = "REPORT sync-collection"
        case get = "GET"
        case putChange = "GET, then PUT (change)"
        case putNew = "PUT (new card)"
    }

    /// How often each kind is sent, out of 100.
    static let mix: [(Kind, Int)] = [
        (.propfindCollection, 10), (.propfindEtags, 3), (.multiget, 20), (.syncCollection, 10), (.get, 32),
        (.putChange, 20), (.putNew, 5),
    ]

    /// What one client did and saw.
    struct ClientResult: Sendable {
        var latencies: [Kind: [Double]] = [:]
        var statuses: [Int: Int] = [:]
        var failures: [String] = []
        /// Each written card's href and the note of its last acknowledged write.
        var acknowledged: [String: String] = [:]
    }

    /// The outcome of a load run.
    struct Outcome {
        var requests: Int
        var seconds: Double
        var latencies: [Kind: [Double]]
        var statuses: [Int: Int]
        var failures: [String]
        var lostWrites: [String]
        var editorEdits: Int
        var editorFailures: [String]
    }

    /// `contacts-bench --serve-load SERVER`: fills the server (`contacts` serving a store, or
    /// Radicale or Xandikos) with the generated cards, runs the load (with `contacts`, the
    /// command line editing the same store meanwhile) and prints the report; exits with status 1
    /// when anything was lost or failed.
    static func run(_ options: BenchOptions, server name: String, source: CardSource) throws {
        let people = options.sizes.first ?? 10_000
        let workspace = try Workspace(keep: options.keep)
        defer { workspace.finish() }
        let cards = workspace.path("cards")
        _ = try source.writeDirectory(count: people, to: cards)
        let load = ServeLoad(clients: options.clients, duration: .seconds(options.seconds))
        let outcome: Outcome
        let label: String
        switch name {
        case "contacts":
            guard let contacts = BenchSuite.contactsTool(options.contactsPath) else {
                throw ContactsError(.io, "the contacts tool was not found; build it or pass --contacts PATH")
            }
            label = "contacts serve"
            Progress.note("contacts serve: importing \(Format.count(people)) cards into a new store")
            let store = try ServingStore.prepare(cards: cards, in: workspace, source: source, count: people)
            let served = try ServingStore(contacts: contacts, store: store)
            defer { served.stop() }
            try served.warm()
            let hrefs = try CardDAVAddressBook(url: served.target.addressBookURL, credentials: nil).listCards().map(\.href).sorted()
            let editor = CommandLineEditor(contacts: contacts, store: store)
            Progress.note("contacts serve: \(options.clients) clients for \(options.seconds) s, the command line editing meanwhile")
            var result = try load.run(on: served.target, hrefs: hrefs) { edit in editor.edit(edit) }
            served.stop()
            result.editorFailures += editor.check()
            outcome = result
        case "radicale", "xandikos":
            let kind: DAVTestServer.Kind = name == "radicale" ? .radicale(password: nil) : .xandikos
            label = name == "radicale" ? "Radicale 3.9" : "Xandikos 0.4"
            Progress.note("\(label): filling the address book with \(Format.count(people)) cards")
            let server = try DAVTestServer(kind)
            defer { server.stop() }
            try server.fill(from: cards)
            try server.warm()
            let target = ServeBench.Target(
                name: label, port: server.port, collectionPath: server.addressBookPath, addressBookURL: server.addressBookURL,
                credentials: server.credentials)
            let hrefs = try CardDAVAddressBook(url: server.addressBookURL, credentials: server.credentials).listCards().map(\.href)
                .sorted()
            Progress.note("\(label): \(options.clients) clients for \(options.seconds) s")
            outcome = try load.run(on: target, hrefs: hrefs)
        default:
            throw UsageError("--serve-load takes contacts, radicale or xandikos, not \(name)")
        }
        print(report(outcome, server: label, clients: options.clients, people: people))
        if outcome.statuses.keys.contains(where: { $0 >= 500 }) || !outcome.failures.isEmpty || !outcome.lostWrites.isEmpty
            || !outcome.editorFailures.isEmpty
        {
            exit(1)
        }
    }

    /// Runs the load on `target`, whose cards are `hrefs`, with `editor` (when given) called
    /// over and over on its own thread until the clients stop; it returns an error text for an
    /// edit that failed, nil for one that was saved.
    func run(
        on target: ServeBench.Target, hrefs: [String], editor: (@Sendable (Int) -> String?)? = nil
    ) throws -> Outcome {
        let results = Mutex<[ClientResult]>([])
        let editorResult = Mutex<(edits: Int, failures: [String])>((0, []))
        let stop = Atomic<Bool>(false)
        let group = DispatchGroup()
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<clients {
            let owned = stride(from: index, to: hrefs.count, by: clients + 1).map { hrefs[$0] }
            group.enter()
            let thread = Thread { [self] in
                let result = client(index, target: target, owned: owned, all: hrefs, until: start + duration)
                results.withLock { $0.append(result) }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        if let editor {
            group.enter()
            Thread {
                var edit = 0
                while !stop.load(ordering: .relaxed) {
                    let failure = editor(edit)
                    editorResult.withLock { state in
                        state.edits += 1
                        if let failure { state.failures.append(failure) }
                    }
                    edit += 1
                }
                group.leave()
            }.start()
        }
        Thread.sleep(forTimeInterval: duration.seconds)
        stop.store(true, ordering: .relaxed)
        group.wait()
        let seconds = (clock.now - start).seconds

        let all = results.withLock { $0 }
        var outcome = Outcome(
            requests: 0, seconds: seconds, latencies: [:], statuses: [:], failures: [], lostWrites: [], editorEdits: 0,
            editorFailures: [])
        var acknowledged: [String: String] = [:]
        for result in all {
            for (kind, values) in result.latencies {
                outcome.latencies[kind, default: []].append(contentsOf: values)
                outcome.requests += values.count
            }
            for (status, count) in result.statuses { outcome.statuses[status, default: 0] += count }
            outcome.failures += result.failures
            acknowledged.merge(result.acknowledged) { $1 }
        }
        (outcome.editorEdits, outcome.editorFailures) = editorResult.withLock { ($0.edits, $0.failures) }
        outcome.lostWrites = try lostWrites(acknowledged, target)
        return outcome
    }

    /// The hrefs whose last acknowledged write the server does not serve.
    private func lostWrites(_ acknowledged: [String: String], _ target: ServeBench.Target) throws -> [String] {
        let connection = RawHTTPConnection(port: target.port)
        var lost: [String] = []
        for (href, note) in acknowledged.sorted(by: { $0.key < $1.key }) {
            let response = try connection.send("GET", href, headers: Self.authorization(target))
            let text = String(decoding: response.body, as: UTF8.self)
            if response.status != 200 || !text.contains("NOTE:\(note)") { lost.append(href) }
        }
        return lost
    }

    /// One client's loop until `deadline`.
    private func client(
        _ index: Int, target: ServeBench.Target, owned: [String], all hrefs: [String], until deadline: ContinuousClock.Instant
    ) -> ClientResult {
        var result = ClientResult()
        var random = SystemRandomNumberGenerator()
        let connection = RawHTTPConnection(port: target.port)
        let headers = Self.authorization(target).merging(["Content-Type": "application/xml; charset=utf-8"]) { $1 }
        var token: String?
        var writes = 0
        let clock = ContinuousClock()
        while clock.now < deadline {
            let kind = Self.pick(Int.random(in: 0..<100, using: &random))
            let started = clock.now
            do {
                let status: Int
                switch kind {
                case .propfindCollection:
                    status = try connection.send(
                        "PROPFIND", target.collectionPath, headers: headers.merging(["Depth": "0"]) { $1 },
                        body: Data(Self.propfindCollectionBody.utf8)
                    ).status
                case .propfindEtags:
                    status = try connection.send(
                        "PROPFIND", target.collectionPath, headers: headers.merging(["Depth": "1"]) { $1 },
                        body: Data(Self.propfindEtagsBody.utf8)
                    ).status
                case .multiget:
                    let wanted = (0..<20).map { _ in hrefs[Int.random(in: 0..<hrefs.count, using: &random)] }
                    status = try connection.send(
                        "REPORT", target.collectionPath, headers: headers.merging(["Depth": "1"]) { $1 },
                        body: Data(Self.multigetBody(wanted).utf8)
                    ).status
                case .syncCollection:
                    let response = try connection.send(
                        "REPORT", target.collectionPath, headers: headers, body: Data(ServeBench.syncCollectionBody(since: token).utf8))
                    status = response.status
                    token = Self.syncToken(in: response.body) ?? (status == 207 ? token : nil)
                case .get:
                    status = try connection.send("GET", hrefs[Int.random(in: 0..<hrefs.count, using: &random)], headers: headers).status
                case .putChange:
                    guard !owned.isEmpty else { continue }
                    let href = owned[Int.random(in: 0..<owned.count, using: &random)]
                    writes += 1
                    let note = "load-\(index)-\(writes)"
                    status = try change(href, note: note, connection, target, &result)
                case .putNew:
                    writes += 1
                    let uid = "load-\(index)-\(writes)-\(UUID().uuidString.lowercased())"
                    let href = target.collectionPath + uid + ".vcf"
                    let note = "new-\(index)-\(writes)"
                    let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:Load \(index) \(writes)\r\n"
                        + "N:\(writes);Load \(index);;;\r\nNOTE:\(note)\r\nEND:VCARD\r\n"
                    var putHeaders = Self.authorization(target)
                    putHeaders["Content-Type"] = "text/vcard; charset=utf-8"
                    putHeaders["If-None-Match"] = "*"
                    let response = try connection.send("PUT", href, headers: putHeaders, body: Data(card.utf8))
                    status = response.status
                    if status == 201 || status == 204 { result.acknowledged[href] = note }
                }
                result.latencies[kind, default: []].append((clock.now - started).seconds)
                result.statuses[status, default: 0] += 1
            } catch {
                result.failures.append("\(kind.rawValue): \(error)")
            }
        }
        return result
    }

    /// Reads one owned card and writes a note into it with `If-Match` on the ETag just read;
    /// returns the PUT's status.
    private func change(
        _ href: String, note: String, _ connection: RawHTTPConnection,
        _ target: ServeBench.Target, _ result: inout ClientResult
    ) throws -> Int {
        let headers = Self.authorization(target)
        let current = try connection.send("GET", href, headers: headers)
        guard current.status == 200, let etag = current.header("etag") else { return current.status }
        var text = String(decoding: current.body, as: UTF8.self)
        // Keep one load note per card, so that cards do not grow without end.
        text = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("NOTE:load-") }
            .joined(separator: "\n")
        guard let end = text.range(of: "END:VCARD", options: [.backwards, .caseInsensitive]) else { return 422 }
        text = text[..<end.lowerBound] + "NOTE:\(note)\r\n" + text[end.lowerBound...]
        var putHeaders = headers
        putHeaders["Content-Type"] = "text/vcard; charset=utf-8"
        putHeaders["If-Match"] = etag
        let response = try connection.send("PUT", href, headers: putHeaders, body: Data(text.utf8))
        if response.status == 201 || response.status == 204 { result.acknowledged[href] = note }
        return response.status
    }

    private static func pick(_ roll: Int) -> Kind {
        var remaining = roll
        for (kind, weight) in mix {
            if remaining < weight { return kind }
            remaining -= weight
        }
        return .get
    }

    static func authorization(_ target: ServeBench.Target) -> [String: String] {
        guard let credentials = target.credentials else { return [:] }
        return ["Authorization": credentials.basicAuthorization]
    }

    private static let propfindCollectionBody =
        #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/">"#
        + "<d:prop><d:sync-token/><cs:getctag/><d:displayname/><d:resourcetype/></d:prop></d:propfind>"
    private static let propfindEtagsBody =
        #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>"#

    private static func multigetBody(_ hrefs: [String]) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><c:addressbook-multiget xmlns:d="DAV:" "#
            + #"xmlns:c="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><c:address-data/></d:prop>"#
            + hrefs.map { "<d:href>\($0)</d:href>" }.joined() + "</c:addressbook-multiget>"
    }

    /// The sync token of a sync-collection answer, found without a full parse: the text of
    /// the last `sync-token` element.
    private static func syncToken(in body: Data) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        var token: String?
        var rest = text.startIndex..<text.endIndex
        while let tag = text.range(of: "sync-token>", range: rest) {
            let end = text[tag.upperBound...].firstIndex(of: "<") ?? text.endIndex
            let value = text[tag.upperBound..<end].trimmingCharacters(in: .whitespacesAndNewlines)
            if !value.isEmpty { token = value }
            rest = end..<text.endIndex
        }
        return token?.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The report: throughput, statuses, latency percentiles and what was lost.
    static func report(_ outcome: Outcome, server: String, clients: Int, people: Int) -> String {
        var lines = [
            "\(server): \(clients) clients for \(Format.seconds(outcome.seconds)) on \(Format.count(people)) cards: "
                + "\(Format.count(outcome.requests)) requests, "
                + String(format: "%.0f", Double(outcome.requests) / max(outcome.seconds, 0.001)) + " requests/s",
            "statuses: " + outcome.statuses.sorted { $0.key < $1.key }.map { "\($0.key) × \(Format.count($0.value))" }
                .joined(separator: ", "),
            "5xx: \(outcome.statuses.filter { $0.key >= 500 }.values.reduce(0, +)); failed requests: \(outcome.failures.count); "
                + "acknowledged writes lost: \(outcome.lostWrites.count)",
        ]
        if outcome.editorEdits > 0 || !outcome.editorFailures.isEmpty {
            lines.append("command-line edits meanwhile: \(outcome.editorEdits), failed or lost: \(outcome.editorFailures.count)")
        }
        lines += ["", "| request | count | p50 | p99 |", "|---|---:|---:|---:|"]
        for kind in Kind.allCases {
            let values = (outcome.latencies[kind] ?? []).sorted()
            guard !values.isEmpty else { continue }
            lines.append(
                "| \(kind.rawValue) | \(Format.count(values.count)) | \(Format.seconds(percentile(values, 0.5))) | "
                    + "\(Format.seconds(percentile(values, 0.99))) |")
        }
        for failure in (outcome.failures + outcome.editorFailures).prefix(10) { lines.append("failure: \(failure)") }
        for href in outcome.lostWrites.prefix(10) { lines.append("lost: \(href)") }
        return lines.joined(separator: "\n")
    }

    private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
    }
}

/// The command line editing the served store during a load run: `contacts add` and
/// `contacts set`, one process at a time, as a person at a terminal would; afterwards every
/// edit it saw succeed must be in the store, and no record ID may appear twice.
final class CommandLineEditor: Sendable {
    let contacts: String
    let store: URL
    /// The people it added, by record ID, with the note it last saved.
    private let notes = Mutex<[String: String]>([:])

    init(contacts: String, store: URL) {
        self.contacts = contacts
        self.store = store
    }

    /// One edit: every third adds a person, the others set a note on a person it added.
    /// Returns a failure's description, nil when the edit was saved.
    func edit(_ number: Int) -> String? {
        let known = notes.withLock { $0.keys.sorted() }
        if number % 3 == 0 || known.isEmpty {
            guard let result = try? run(["add", "Editor \(number)", "--note", "edit-\(number)"]), result.status == 0 else {
                return "contacts add failed"
            }
            let id = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            notes.withLock { $0[id] = "edit-\(number)" }
            return nil
        }
        let id = known[number % known.count]
        guard let result = try? run(["set", id, "note=edit-\(number)"]), result.status == 0 else {
            return "contacts set \(id) failed"
        }
        notes.withLock { $0[id] = "edit-\(number)" }
        return nil
    }

    /// The edits not found in the store afterwards, and record IDs listed twice.
    func check() -> [String] {
        var problems: [String] = []
        guard let listed = try? run(["list"]), listed.status == 0 else { return ["contacts list failed"] }
        var seen = Set<String>()
        for line in listed.output.split(separator: "\n") {
            let id = String(line.prefix { $0 != "\t" })
            if !seen.insert(id).inserted { problems.append("record ID \(id) listed twice") }
        }
        for (id, note) in notes.withLock({ $0 }) {
            guard let shown = try? run(["show", id]), shown.status == 0, shown.output.contains(note) else {
                problems.append("the command line's edit \(note) of record \(id) is missing")
                continue
            }
        }
        return problems
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: contacts)
        process.arguments = ["--store", store.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
