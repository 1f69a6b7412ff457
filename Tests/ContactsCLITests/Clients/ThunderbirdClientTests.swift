import DAVTestSupport
import Foundation
import Glibc
import TestTags
import Testing

/// Thunderbird (Debian 12's 153 ESR, its own CardDAV code) syncing its address book with
/// `contacts serve --commit`. Thunderbird runs headless with Marionette in a fresh profile in
/// the test's sandbox; `Clients/thunderbird.py` drives it from Marionette's chrome context:
/// discovery from the server's address through `/.well-known/carddav` with
/// `CardDAVUtils.detectAddressBooks`, the found book's `create()` (the password saved in the
/// login manager, every card fetched), then the directory's `syncWithServer` (sync-collection,
/// Depth 1) and its `addCard`, `modifyCard` and `deleteCards`, which `PUT` (vCard 4.0 for a
/// card made as 4.0, without `If-Match`) and `DELETE` at once and read each card back with a
/// multiget.
///
/// Thunderbird talks to 127.0.0.1 only: it is given the server's `/.well-known/carddav` URL
/// (from the root URL alone it would ask DNS for the SRV record `_carddavs._tcp.HOST` first),
/// and the profile turns off updates, telemetry, add-on and remote-settings updates,
/// captive-portal and connectivity checks, and sends every other address through a proxy at
/// 127.0.0.1 port 9, where nothing listens. (Under `strace -f -e connect` a run connects to
/// 127.0.0.1 only.)
@Suite(.serialized) struct ThunderbirdClientTests {
    /// The driver script.
    static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "thunderbird.py")

    static let program = "/usr/bin/thunderbird"

    static var available: Bool { FileManager.default.isExecutableFile(atPath: program) }

    static let installHint = "Thunderbird (/usr/bin/thunderbird) is not installed: apt-get install thunderbird"

    /// How long Thunderbird may take to open its Marionette port.
    static let startTimeout: Duration = .seconds(60)

    /// The profile's preferences: Marionette on a free port, nothing started at first run, and
    /// no connection to any address but 127.0.0.1.
    static let preferences: [(String, String)] = [
        ("marionette.port", "0"),
        ("app.update.enabled", "false"), ("app.update.auto", "false"), ("app.update.checkInstallTime", "false"),
        ("extensions.update.enabled", "false"), ("extensions.getAddons.cache.enabled", "false"),
        ("extensions.blocklist.enabled", "false"), ("services.settings.server", "\"http://127.0.0.1:9/\""),
        ("datareporting.policy.dataSubmissionEnabled", "false"), ("datareporting.healthreport.uploadEnabled", "false"),
        ("toolkit.telemetry.enabled", "false"), ("toolkit.telemetry.unified", "false"),
        ("app.normandy.enabled", "false"), ("browser.safebrowsing.malware.enabled", "false"),
        ("browser.safebrowsing.phishing.enabled", "false"), ("network.captive-portal-service.enabled", "false"),
        ("network.connectivity-service.enabled", "false"), ("network.dns.disablePrefetch", "true"),
        ("network.prefetch-next", "false"), ("mail.shell.checkDefaultClient", "false"),
        ("mailnews.start_page.enabled", "false"), ("mail.provider.enabled", "false"),
        ("mail.instrumentation.postUrl", "\"\""), ("mail.rights.version", "1"),
        ("network.proxy.type", "1"), ("network.proxy.http", "\"127.0.0.1\""), ("network.proxy.http_port", "9"),
        ("network.proxy.ssl", "\"127.0.0.1\""), ("network.proxy.ssl_port", "9"),
        ("network.proxy.socks", "\"127.0.0.1\""), ("network.proxy.socks_port", "9"),
        ("network.proxy.socks_remote_dns", "true"), ("network.proxy.no_proxies_on", "\"127.0.0.1\""),
        ("network.proxy.allow_hijacking_localhost", "false"),
    ]

    /// Skipped on a machine without Thunderbird, except under CI (`CI` set), where its absence
    /// fails the test: `.ci/run` installs it.
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: available || ProcessInfo.processInfo.environment["CI"] != nil, "\(installHint)"))
    func thunderbirdSyncsItsAddressBookWithTheStoreBothWays() throws {
        try #require(Self.available, "\(Self.installHint)")
        let book = try ServedBook()
        let home = try ClientHome(sandbox: book.sandbox, name: "thunderbird")
        let thunderbird = try RunningThunderbird(home: home)
        defer { thunderbird.quit() }

        // Given the server's well-known address, Thunderbird finds the address book and keeps
        // the password. (Given the root, it would first ask DNS for `_carddavs._tcp.127.0.0.1`.)
        let wellKnown = book.server.url.appending(path: ".well-known/carddav")
        let found = try thunderbird.step(["discover", wellKnown.absoluteString, ServedBook.user])
        #expect(found.books == [book.addressBook.absoluteString])
        #expect(found.logins == [ServedBook.user])
        try expectEveryCard(in: found.cards, of: book)

        let changed = try thunderbird.step(["change", try changesInThunderbird(first: found.cards)])
        #expect(changed.cards.count == 6)
        try expectThunderbirdsChanges(in: book)
        let clientCommits = try book.serveCommits(count: 4)
        #expect(clientCommits.count == 4, "\(clientCommits)")
        #expect(clientCommits.allSatisfy { $0.contains(" with Thunderbird/153.") }, "\(clientCommits)")

        try book.changeTheStore(editing: "Åsa Nyström")
        let synced = try thunderbird.step(["sync"])
        try expectTheStoresChanges(in: synced.cards, of: book)
        #expect(try book.serveCommits() == clientCommits)

        try book.expectALastSyncChangesNothing(commits: clientCommits) { try thunderbird.step(["sync"]).cards == synced.cards }
        thunderbird.quit()
        #expect(home.endLeftoverProcesses().isEmpty)
    }

    /// The round every client must pass against `contacts serve --commit`: Thunderbird uploads
    /// two cards added in it; the user removes one and edits the other there (Thunderbird sends
    /// each change at once); after two syncs the store and Thunderbird agree, the removed card
    /// stays removed, nothing was a conflict, and the last sync transferred no card.
    ///
    /// Thunderbird reports no conflicts of its own (it sends changes without `If-Match`): "no
    /// conflict" is no change the server refused as one, and no card removed or edited in
    /// Thunderbird that came back or came twice. "Transferred no card" is a last sync whose one
    /// request, as Thunderbird made it, is a sync-collection `REPORT` whose answer lists no card,
    /// and which is the one request the server logged: no `GET`, `PUT`, `DELETE` or multiget.
    /// Thunderbird reads each card back after its PUT and keeps it as served: as it sent it, with
    /// no line of the server's own.
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: available || ProcessInfo.processInfo.environment["CI"] != nil, "\(installHint)"))
    func thunderbirdKeepsTheRemovalAndTheEditOfCardsItUploaded() throws {
        try #require(Self.available, "\(Self.installHint)")
        let book = try ServedBook()
        let home = try ClientHome(sandbox: book.sandbox, name: "thunderbird")
        let thunderbird = try RunningThunderbird(home: home)
        defer { thunderbird.quit() }
        let wellKnown = book.server.url.appending(path: ".well-known/carddav")
        #expect(try thunderbird.step(["discover", wellKnown.absoluteString, ServedBook.user]).cards.count == 5)
        let added = [
            ServedBook.card("thunderbird-1", "Client", "One", ["TEL;TYPE=CELL:+44 20 7946 0001"]),
            ServedBook.card("thunderbird-2", "Client", "Two", ["EMAIL;TYPE=INTERNET:two@example.com"]),
        ]
        #expect(try thunderbird.step(["change", try Self.json(["add": added])]).cards.count == 7)
        #expect(try book.names() == ["Client One", "Client Two", "Katie Bell", "Kept Lines", "Local Leaver", "Zoë Ångström"])

        let changes: [String: Any] = ["note": ["thunderbird-1": "edited in Thunderbird"], "delete": ["thunderbird-2"]]
        _ = try thunderbird.step(["change", try Self.json(changes)])
        _ = try thunderbird.step(["sync"])
        let before = book.requests().count
        let last = try thunderbird.step(["sync"])
        #expect(try book.server.stop().status == 0)
        let requests = book.requests()

        #expect(!requests.contains { ServedBook.conflictStatuses.contains($0.status) }, "\(requests)")
        #expect(last.requests == [.init(method: "REPORT", body: "sync-collection", responses: 0)], "\(last.requests)")
        #expect(requests.dropFirst(before).map(\.method) == ["REPORT"], "\(requests.dropFirst(before))")
        #expect(try book.names() == ["Client One", "Katie Bell", "Kept Lines", "Local Leaver", "Zoë Ångström"])
        #expect(try book.sandbox.succeed(["show", try book.id("Client One")]).stdout.contains("edited in Thunderbird"))
        #expect(last.cards.count == 6 && last.cards["thunderbird-2"] == nil)
        #expect(!last.cards.values.contains { CardLines.first("FN", in: CardLines.lines($0)) == "Client Two" })
        let edited = CardLines.lines(try #require(last.cards["thunderbird-1"]))
        #expect(CardLines.first("NOTE", in: edited) == "edited in Thunderbird")
        #expect(!edited.contains { CardLines.name(of: $0).hasPrefix("X-PLAINCONTACTS") }, "\(edited)")
        thunderbird.quit()
        #expect(home.endLeftoverProcesses().isEmpty)
    }

    /// Changes for the driver's `change` step, as JSON.
    private static func json(_ changes: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: changes), as: UTF8.self)
    }

    /// Thunderbird with the books of two users of one server: Kim's two, both writable, in
    /// the order granted; the tablet's one, the family's, read-only, where Thunderbird refuses
    /// to add a card and the store stays byte for byte as it was, and which still follows the
    /// changes Kim makes.
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: available || ProcessInfo.processInfo.environment["CI"] != nil, "\(installHint)"))
    func thunderbirdShowsEachUsersBooksAndWritesNoneItMayOnlyRead() throws {
        try #require(Self.available, "\(Self.installHint)")
        let served = try ServedFamily()
        let home = try ClientHome(sandbox: served.sandbox, name: "thunderbird")
        let thunderbird = try RunningThunderbird(home: home)
        defer { thunderbird.quit() }
        let wellKnown = served.server.url.appending(path: ".well-known/carddav").absoluteString

        let kim = try Self.books(thunderbird.json(["discover-all", wellKnown, "kim"], password: ServedFamily.password))
        #expect(kim.map(\.url) == [served.book("contacts", of: "kim").absoluteString, served.book("family", of: "kim").absoluteString])
        #expect(kim.map(\.name) == ["Contacts", "family"])
        #expect(kim.map(\.readOnly) == [false, false])
        #expect(kim.map(\.names) == [["Kim Own"], ["Ada Family", "Grace Family"]])

        let before = try served.familyFiles()
        let tablet = try Self.books(thunderbird.json(["discover-all", wellKnown, "tablet"], password: ServedFamily.password))
        let tabletBook = served.book("family", of: "tablet").absoluteString
        #expect(tablet.map(\.url) == [tabletBook])
        #expect(tablet.map(\.readOnly) == [true])
        #expect(tablet.first?.names == ["Ada Family", "Grace Family"])
        let tried = try thunderbird.json(["try-add", tabletBook, ServedBook.card("tablet-1", "Tab", "Let")])
        let refusal = try #require(tried["refused"] as? String, "Thunderbird added a card to a read-only book: \(tried)")
        #expect(refusal.contains("read-only"))
        #expect(try served.familyFiles() == before)

        // Kim's change to the family's book reaches the tablet's read-only copy.
        let added = try thunderbird.json(["try-add", served.book("family", of: "kim").absoluteString, ServedBook.card("kim-1", "Kit", "Family")])
        #expect(added["refused"] is NSNull)
        #expect(try served.familyNames() == ["Ada Family", "Grace Family", "Kit Family"])
        let synced = try thunderbird.json(["sync-book", tabletBook])
        let names = (synced["cards"] as? [[String: Any]] ?? []).compactMap { $0["displayName"] as? String }.sorted()
        #expect(names == ["Ada Family", "Grace Family", "Kit Family"])
        thunderbird.quit()
        #expect(home.endLeftoverProcesses().isEmpty)
    }

    /// A book as `discover-all` prints it.
    private struct FoundBook {
        var name: String
        var url: String
        var readOnly: Bool
        /// The display names of its cards, sorted.
        var names: [String]
    }

    private static func books(_ printed: [String: Any]) -> [FoundBook] {
        (printed["books"] as? [[String: Any]] ?? []).map { book in
            FoundBook(
                name: book["name"] as? String ?? "", url: book["url"] as? String ?? "", readOnly: book["readOnly"] as? Bool ?? false,
                names: (book["cards"] as? [[String: Any]] ?? []).compactMap { $0["displayName"] as? String }.sorted())
        }
    }

    /// The first fetch brings every card, the image and the names beyond ASCII. Thunderbird
    /// keeps the group card as an ordinary card, its Apple lines untouched, and the lines it
    /// does not know, writing their names in upper case (`ITEM1.X-ABLABEL`).
    private func expectEveryCard(in cards: [String: String], of book: ServedBook) throws {
        #expect(cards.count == 5)
        let kept = try #require(cards["kept"])
        #expect(kept.contains("X-UNKNOWN;X-P=1:kept") && kept.contains("ITEM1.X-ABLABEL:Lab"))
        let zoe = try #require(cards["zoe"])
        #expect(zoe.contains("FN:Zoë Ångström") && zoe.contains("N:Ångström;Zoë;;;"))
        #expect(ServedBook.image(in: zoe) == ServedBook.image(1))
        let friends = try card(named: "Friends", in: cards)
        #expect(friends.contains("X-ADDRESSBOOKSERVER-KIND:group"))
        #expect(friends.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(try book.uid("Katie Bell"))"))
    }

    /// The changes made in Thunderbird, as its driver's JSON: two added (one in vCard 4.0, as
    /// Thunderbird's editor makes them, with a line the store does not model, an image and a
    /// name beyond ASCII), one edited, one removed.
    private func changesInThunderbird(first: [String: String]) throws -> String {
        let asa = [
            "BEGIN:VCARD", "VERSION:4.0", "UID:thunderbird-1", "FN:Åsa Nyström", "N:Nyström;Åsa;;;",
            "X-THUNDERBIRD-ONLY;TYPE=a:still here", "PHOTO:data:image/png;base64," + ServedBook.image(2).base64EncodedString(),
            "END:VCARD",
        ].joined(separator: "\r\n") + "\r\n"
        let olivia = ServedBook.card("thunderbird-2", "Olivia", "Wood", ["EMAIL;TYPE=INTERNET:olivia@example.com"])
        return try Self.json(["add": [asa, olivia], "note": ["kept": "edited in Thunderbird"], "delete": ["leaver"]])
    }

    /// In the store, exactly Thunderbird's changes, each one commit; the group untouched. The
    /// card Thunderbird edited keeps its unknown lines as Thunderbird wrote them (names are
    /// case-insensitive, RFC 6350 3.3).
    private func expectThunderbirdsChanges(in book: ServedBook) throws {
        #expect(try book.names() == ["Katie Bell", "Kept Lines", "Olivia Wood", "Zoë Ångström", "Åsa Nyström"])
        #expect(try book.sandbox.succeed(["show", try book.id("Kept Lines")]).stdout.contains("edited in Thunderbird"))
        #expect(try book.unmodelledLines("Kept Lines") == ["X-UNKNOWN;X-P=1:kept", "ITEM1.X-ABLABEL:Lab"])
        #expect(try book.unmodelledLines("Åsa Nyström").contains("X-THUNDERBIRD-ONLY;TYPE=a:still here"))
        #expect(try book.images() == [ServedBook.image(1), ServedBook.image(2)])
        #expect(try book.sandbox.succeed(["group", "members", "Friends"]).stdout.contains("Katie Bell"))
    }

    /// The store's changes as Thunderbird must have them, beside what it added.
    private func expectTheStoresChanges(in cards: [String: String], of book: ServedBook) throws {
        let asa = try #require(cards["thunderbird-1"])
        #expect(asa.contains("NOTE:edited here") && asa.contains("X-THUNDERBIRD-ONLY;TYPE=a:still here"))
        #expect(asa.contains("FN:Åsa Nyström") && ServedBook.image(in: asa) == ServedBook.image(2))
        #expect(cards[try book.uid("New Local")] != nil)
        #expect(!cards.values.contains { CardLines.first("FN", in: CardLines.lines($0)) == "Katie Bell" })
        #expect(ServedBook.image(in: try #require(cards["zoe"])) == ServedBook.image(1))
        let friends = CardLines.lines(try card(named: "Friends", in: cards))
        let members = friends.filter { CardLines.name(of: $0) == "X-ADDRESSBOOKSERVER-MEMBER" }
        #expect(members == ["X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(try book.uid("New Local"))"])
    }

    private func card(named name: String, in cards: [String: String]) throws -> String {
        try #require(cards.values.first { CardLines.first("FN", in: CardLines.lines($0)) == name }, "no card \(name)")
    }
}

/// A headless Thunderbird in a private home and a fresh profile, with Marionette on a free
/// port, and the driver's steps run against it.
private final class RunningThunderbird {
    /// What a step of the driver printed.
    struct Step {
        /// The address books found, by URL (`discover` only).
        var books: [String]
        /// The user names of the logins saved for the server (`discover` only).
        var logins: [String]
        /// The cards Thunderbird keeps, their vCards by UID.
        var cards: [String: String]
        /// The requests Thunderbird made (`sync` only).
        var requests: [Request]
    }

    /// A request Thunderbird made in a sync.
    struct Request: Equatable {
        var method: String
        /// The root element of its body: a `REPORT`'s kind, such as `sync-collection`.
        var body: String
        /// How many responses the server's multistatus answer held: for a sync-collection,
        /// the cards changed or removed.
        var responses: Int
    }

    let home: ClientHome
    private let pid: pid_t
    private let port: Int
    private let python: URL
    private var running = true

    init(home: ClientHome) throws {
        self.home = home
        python = try DAVServerInstallation.python(importing: "marionette_driver")
        let profile = home.folder("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let preferences = ThunderbirdClientTests.preferences.map { "user_pref(\"\($0.0)\", \($0.1));\n" }.joined()
        try Data(preferences.utf8).write(to: profile.appending(path: "user.js"))
        pid = try ChildProcess.spawn(
            [ThunderbirdClientTests.program, "--headless", "--marionette", "-remote-allow-system-access", "--no-remote",
             "--profile", profile.path(percentEncoded: false)],
            environment: home.environment, folder: home.root,
            output: home.root.appending(path: "thunderbird.log").path(percentEncoded: false),
            errors: home.root.appending(path: "thunderbird.log").path(percentEncoded: false))
        let portFile = profile.appending(path: "MarionetteActivePort")
        let clock = ContinuousClock()
        let deadline = clock.now + ThunderbirdClientTests.startTimeout
        var found: Int?
        while found == nil, clock.now < deadline {
            found = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if found == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let found else {
            kill(pid, SIGKILL)
            _ = try? ChildProcess.wait(pid, program: ThunderbirdClientTests.program)
            home.endLeftoverProcesses()
            throw StartFailure(description: "Thunderbird opened no Marionette port within \(ThunderbirdClientTests.startTimeout)")
        }
        port = found
    }

    deinit {
        quit()
    }

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs one step of the driver; it must succeed.
    func step(_ arguments: [String]) throws -> Step {
        let printed = try json(arguments)
        var cards: [String: String] = [:]
        for card in printed["cards"] as? [[String: Any]] ?? [] {
            if let uid = card["uid"] as? String, let vCard = card["vCard"] as? String { cards[uid] = vCard }
        }
        return Step(
            books: (printed["books"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String },
            logins: (printed["logins"] as? [[String: Any]] ?? []).compactMap { $0["username"] as? String },
            cards: cards,
            requests: (printed["requests"] as? [[String: Any]] ?? []).map { request in
                Request(
                    method: request["method"] as? String ?? "", body: request["body"] as? String ?? "",
                    responses: request["responses"] as? Int ?? -1)
            })
    }

    /// Runs one step of the driver, signing in with `password`; it must succeed. What it
    /// printed, as JSON.
    func json(_ arguments: [String], password: String = ServedBook.password) throws -> [String: Any] {
        let run = try home.run(
            [python.path(percentEncoded: false), ThunderbirdClientTests.script.path(percentEncoded: false), String(port)] + arguments,
            environment: ["THUNDERBIRD_PASSWORD": password])
        try #require(run.status == 0, "thunderbird.py \(arguments.first ?? "") failed: \(run)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    /// Ends Thunderbird and every process it started.
    func quit() {
        guard running else { return }
        running = false
        kill(pid, SIGTERM)
        _ = try? ChildProcess.wait(pid, program: ThunderbirdClientTests.program)
        home.endLeftoverProcesses()
    }
}
