import Foundation
import TestTags
import Testing

/// Evolution's address book, as Evolution-Data-Server 3.46 (Debian 12) keeps it, syncing with
/// `contacts serve --commit`: `Clients/evolution.py` starts EDS's registry and address-book
/// factory on a private D-Bus session bus in a private home, creates a CardDAV source there for
/// the address book it finds from the server's address (as Evolution's Find Address Books
/// does), answers the password request and drives the book through EDS's own library
/// (`EBook.BookClient`).
@Suite(.serialized) struct EvolutionClientTests {
    /// The driver script.
    static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "evolution.py")

    /// Whether what the script needs is installed: dbus-run-session, EDS's registry and
    /// address-book factory, and Debian's python3 with the GObject bindings of EDS's libraries.
    static let available: Bool = {
        let programs = ["/usr/bin/dbus-run-session", "/usr/libexec/evolution-source-registry", "/usr/libexec/evolution-addressbook-factory"]
        guard programs.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else { return false }
        let imports = "import gi\nfor name in ('EDataServer', 'EBook', 'EBookContacts'): gi.require_version(name, '1.2')\n"
            + "from gi.repository import EBook, EBookContacts, EDataServer\n"
        return (try? ChildProcess.run(["/usr/bin/python3", "-c", imports], environment: ["PATH": "/usr/bin:/bin"])) == 0
    }()

    static let installHint =
        "Evolution-Data-Server is not installed: apt-get install evolution-data-server gir1.2-ebook-1.2 gir1.2-edataserver-1.2 python3-gi dbus-daemon"

    /// One run of the driver with `steps`; it must succeed and leave no process running.
    @discardableResult
    private func evolution(_ home: ClientHome, _ book: ServedBook, _ steps: [String]) throws -> CLIResult {
        try evolution(home, server: book.server.url, user: ServedBook.user, password: ServedBook.password, steps)
    }

    /// One run of the driver as `user`, on the book whose path ends with `book` when the user
    /// has several.
    @discardableResult
    private func evolution(
        _ home: ClientHome, server: URL, user: String, password: String, book: String? = nil, _ steps: [String]
    ) throws -> CLIResult {
        let run = try home.run(
            ["/usr/bin/python3", Self.script.path(percentEncoded: false), server.absoluteString, user] + steps,
            environment: ["EDS_PASSWORD": password, "EDS_BOOK": book ?? ""])
        try #require(run.status == 0, "evolution.py \(steps.joined(separator: " ")) failed: \(run)")
        let left = home.endLeftoverProcesses()
        try #require(left.isEmpty, "evolution.py left processes running: \(left)")
        return run
    }

    /// Runs `steps`, syncs and returns EDS's cards by UID.
    private func sync(_ home: ClientHome, _ book: ServedBook, changing steps: [String] = []) throws -> [String: String] {
        let folder = home.folder("cards-\(UUID().uuidString)")
        try evolution(home, book, steps + ["sync", folder.path(percentEncoded: false)])
        return try cards(in: folder)
    }

    /// The cards the driver wrote into `folder`, by UID.
    private func cards(in folder: URL) throws -> [String: String] {
        var cards: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)) {
            let card = try String(contentsOf: folder.appending(path: name), encoding: .utf8)
            cards[try #require(CardLines.first("UID", in: CardLines.lines(card)))] = card
        }
        return cards
    }

    private func card(named name: String, in cards: [String: String]) throws -> String {
        try #require(cards.values.first { CardLines.first("FN", in: CardLines.lines($0)) == name }, "no card \(name)")
    }

    /// Skipped on a machine without EDS, except under CI (`CI` set), where its absence fails
    /// the test: `.ci/run` installs it.
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: available || ProcessInfo.processInfo.environment["CI"] != nil, "\(installHint)"))
    func evolutionSyncsItsAddressBookWithTheStoreBothWays() throws {
        try #require(Self.available, "\(Self.installHint)")
        let book = try ServedBook()
        let home = try ClientHome(sandbox: book.sandbox, name: "evolution")

        // Given the server's address, EDS finds the address book.
        let folder = home.folder("first")
        let run = try evolution(home, book, ["sync", folder.path(percentEncoded: false)])
        #expect(run.stderr.contains("found the address book \(book.addressBook.absoluteString)\n"), "\(run.stderr)")
        let first = try cards(in: folder)
        try expectEveryCard(in: first, of: book)

        let second = try sync(home, book, changing: try changesInEvolution(first: first, home: home, book: book))
        try expectEvolutionsChanges(in: book, synced: second)
        let clientCommits = try book.serveCommits(count: 6)
        #expect(clientCommits.count == 6, "\(clientCommits)")
        #expect(clientCommits.allSatisfy { $0.contains(" with Evolution/3.") }, "\(clientCommits)")

        try book.changeTheStore(editing: "Åsa Nyström")
        let third = try sync(home, book)
        try expectTheStoresChanges(in: third, of: book)
        #expect(try book.serveCommits() == clientCommits)

        try book.expectALastSyncChangesNothing(commits: clientCommits) { try sync(home, book) == third }
    }

    /// The round every client must pass against `contacts serve --commit`: EDS uploads two
    /// cards added in Evolution; the user removes one and edits the other there (EDS sends
    /// each change at once); after two syncs the store and EDS agree, the removed card stays
    /// removed, nothing was a conflict, and the last sync transferred no card.
    ///
    /// EDS reports no conflicts of its own: a change the server refuses as one (412 to its
    /// `If-Match`) fails the step. "No conflict" is no change refused so, and no card removed
    /// or edited in Evolution that came back or came twice. "Transferred no card" is a last
    /// run (opening the book, then a sync) that sent the server no request that carries a card
    /// (``ServedBook/cardMethods``): EDS compares the book's ETags with `PROPFIND` and fetches
    /// a changed card with a multiget `REPORT`. EDS keeps a card it uploaded under the PUT's
    /// ETag, with no `GET` (it fetches the card back when the answer has no ETag), and its copy
    /// then has no line of the server's own.
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: available || ProcessInfo.processInfo.environment["CI"] != nil, "\(installHint)"))
    func evolutionKeepsTheRemovalAndTheEditOfCardsItUploaded() throws {
        try #require(Self.available, "\(Self.installHint)")
        let book = try ServedBook()
        let home = try ClientHome(sandbox: book.sandbox, name: "evolution")
        var added: [String] = []
        for (index, card) in [
            ServedBook.card("evolution-1", "Client", "One", ["TEL;TYPE=CELL:+44 20 7946 0001"]),
            ServedBook.card("evolution-2", "Client", "Two", ["EMAIL;TYPE=INTERNET:two@example.com"]),
        ].enumerated() {
            let file = home.root.appending(path: "added-\(index).vcf")
            try Data(card.utf8).write(to: file)
            added += ["add", file.path(percentEncoded: false)]
        }
        let uploading = book.requests().count
        let uploaded = try sync(home, book, changing: added)
        // EDS fetches a card it uploaded back only when the PUT's answer has no ETag.
        let upload = book.requests().dropFirst(uploading)
        #expect(upload.filter { $0.method == "PUT" }.count == 2 && !upload.contains { $0.method == "GET" }, "\(upload)")
        #expect(uploaded.count == 7)
        #expect(try book.names() == ["Client One", "Client Two", "Katie Bell", "Kept Lines", "Local Leaver", "Zoë Ångström"])

        try evolution(home, book, ["remove", "evolution-2", "note", "evolution-1", "edited in Evolution"])
        _ = try sync(home, book)
        let before = book.requests().count
        let last = try sync(home, book)
        #expect(try book.server.stop().status == 0)
        let requests = book.requests()
        let lastSync = requests.dropFirst(before)

        #expect(!requests.contains { ServedBook.conflictStatuses.contains($0.status) }, "\(requests)")
        #expect(!lastSync.isEmpty && !lastSync.contains { ServedBook.cardMethods.contains($0.method) }, "\(lastSync)")
        #expect(try book.names() == ["Client One", "Katie Bell", "Kept Lines", "Local Leaver", "Zoë Ångström"])
        #expect(try book.sandbox.succeed(["show", try book.id("Client One")]).stdout.contains("edited in Evolution"))
        #expect(last.count == 6 && last["evolution-2"] == nil)
        #expect(!last.values.contains { CardLines.first("FN", in: CardLines.lines($0)) == "Client Two" })
        let edited = CardLines.lines(try #require(last["evolution-1"]))
        #expect(CardLines.first("NOTE", in: edited) == "edited in Evolution")
        #expect(!edited.contains { CardLines.name(of: $0).hasPrefix("X-PLAINCONTACTS") }, "\(edited)")
    }

    /// EDS with the books of two users of one server: it finds Kim's two in the order
    /// granted and may change the family's; for the tablet it finds only the family's book,
    /// keeps it read-only, refuses to add a card there and leaves the store byte for byte as
    /// it was, and still follows the changes Kim makes.
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: available || ProcessInfo.processInfo.environment["CI"] != nil, "\(installHint)"))
    func evolutionFindsEachUsersBooksAndWritesNoneItMayOnlyRead() throws {
        try #require(Self.available, "\(Self.installHint)")
        let served = try ServedFamily()
        func evolution(_ home: ClientHome, _ user: String, book: String? = nil, _ steps: [String]) throws -> CLIResult {
            try self.evolution(home, server: served.server.url, user: user, password: ServedFamily.password, book: book, steps)
        }
        let card = try home(served, "card").appending(path: "card.vcf")
        try Data(ServedBook.card("evolution-tablet", "Tab", "Let").utf8).write(to: card)

        let tablet = try ClientHome(sandbox: served.sandbox, name: "evolution-tablet")
        let folder = tablet.folder("cards")
        let read = try evolution(tablet, "tablet", ["writable", "sync", folder.path(percentEncoded: false)])
        #expect(read.stderr.contains("found the address books \(served.book("family", of: "tablet").absoluteString)\n"), "\(read.stderr)")
        #expect(read.stderr.contains("writable: no\n"), "\(read.stderr)")
        #expect(try cards(in: folder).values.compactMap { CardLines.first("FN", in: CardLines.lines($0)) }.sorted() == ["Ada Family", "Grace Family"])
        // The server's state of the book, kept beside it, is written by the first listing:
        // from here on, the store is compared whole.
        let before = try served.familyFiles()
        let refused = try evolution(tablet, "tablet", ["try-add", card.path(percentEncoded: false)])
        #expect(refused.stderr.contains("refused:"), "\(refused.stderr)")
        #expect(try served.familyFiles() == before)

        let kim = try ClientHome(sandbox: served.sandbox, name: "evolution-kim")
        let found = "found the address books \(served.book("contacts", of: "kim").absoluteString) \(served.book("family", of: "kim").absoluteString)\n"
        let wrote = try evolution(kim, "kim", book: "/kim/family/", ["writable", "add", card.path(percentEncoded: false)])
        #expect(wrote.stderr.contains(found), "\(wrote.stderr)")
        #expect(wrote.stderr.contains("writable: yes\n"), "\(wrote.stderr)")
        #expect(try served.familyNames() == ["Ada Family", "Grace Family", "Tab Let"])

        let later = tablet.folder("later")
        _ = try evolution(tablet, "tablet", ["sync", later.path(percentEncoded: false)])
        #expect(try cards(in: later).values.compactMap { CardLines.first("FN", in: CardLines.lines($0)) }.sorted() == ["Ada Family", "Grace Family", "Tab Let"])
    }

    /// A folder for files the test hands the driver.
    private func home(_ served: ServedFamily, _ name: String) throws -> URL {
        let folder = served.sandbox.root.appending(path: name, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The first sync brings every card, the image and the names beyond ASCII. EDS keeps the
    /// group card as an ordinary contact, its Apple lines untouched.
    private func expectEveryCard(in first: [String: String], of book: ServedBook) throws {
        #expect(first.count == 5)
        let kept = try #require(first["kept"])
        #expect(kept.contains("X-UNKNOWN;X-P=1:kept") && kept.contains("item1.X-ABLabel:Lab"))
        let zoe = try #require(first["zoe"])
        #expect(zoe.contains("FN:Zoë Ångström") && zoe.contains("N:Ångström;Zoë;;;"))
        #expect(ServedBook.image(in: zoe) == ServedBook.image(1))
        let friends = try card(named: "Friends", in: first)
        #expect(friends.contains("X-ADDRESSBOOKSERVER-KIND:group"))
        #expect(friends.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(try book.uid("Katie Bell"))"))
    }

    /// The driver's steps for the changes made in Evolution: two added (one with a line the
    /// store does not model, an image and a name beyond ASCII), one edited, one removed, a note
    /// on the group card, and one of Evolution's own contact lists, with Katie Bell in it. Each
    /// goes to the server at once.
    private func changesInEvolution(first: [String: String], home: ClientHome, book: ServedBook) throws -> [String] {
        let member = "EMAIL;X-EVOLUTION-DEST-CONTACT-UID=\(try book.uid("Katie Bell"));X-EVOLUTION-DEST-EMAIL-NUM=0:Katie Bell <katie@example.com>"
        let added = [
            ServedBook.card("evolution-1", "Åsa", "Nyström", ["X-EVOLUTION-ONLY;TYPE=a:still here", ServedBook.photoLine(ServedBook.image(2))]),
            ServedBook.card("evolution-2", "Olivia", "Wood", ["EMAIL;TYPE=INTERNET:olivia@example.com"]),
            ["BEGIN:VCARD", "VERSION:3.0", "UID:evolution-list", "FN:Book Club", "N:Book Club;;;;", "X-EVOLUTION-LIST:TRUE", member, "END:VCARD"]
                .joined(separator: "\r\n") + "\r\n",
        ]
        var steps: [String] = []
        for (index, card) in added.enumerated() {
            let file = home.root.appending(path: "added-\(index).vcf")
            try Data(card.utf8).write(to: file)
            steps += ["add", file.path(percentEncoded: false)]
        }
        let friends = try #require(CardLines.first("UID", in: CardLines.lines(try card(named: "Friends", in: first))))
        return steps + ["note", "kept", "edited in Evolution", "remove", "leaver", "note", friends, "a group note"]
    }

    /// In the store, exactly Evolution's changes. A contact list is a person to the store, its
    /// card kept whole for Evolution; the group card edited in Evolution is still the group.
    private func expectEvolutionsChanges(in book: ServedBook, synced second: [String: String]) throws {
        #expect(second.count == 7 && second["leaver"] == nil)
        #expect(try book.names() == ["Book Club", "Katie Bell", "Kept Lines", "Olivia Wood", "Zoë Ångström", "Åsa Nyström"])
        #expect(try book.sandbox.succeed(["show", try book.id("Kept Lines")]).stdout.contains("edited in Evolution"))
        #expect(try book.unmodelledLines("Kept Lines") == ["X-UNKNOWN;X-P=1:kept", "item1.X-ABLabel:Lab"])
        #expect(try book.unmodelledLines("Åsa Nyström").contains("X-EVOLUTION-ONLY;TYPE=a:still here"))
        #expect(try book.images() == [ServedBook.image(1), ServedBook.image(2)])
        #expect(try book.unmodelledLines("Book Club") == ["X-EVOLUTION-LIST:TRUE"])
        #expect(try book.sandbox.succeed(["group", "members", "Friends"]).stdout.contains("Katie Bell"))
    }

    /// The store's changes as EDS must have them, beside what Evolution added: the group's
    /// note came back from the store with its new member, and the contact list whole.
    private func expectTheStoresChanges(in third: [String: String], of book: ServedBook) throws {
        let asa = try #require(third["evolution-1"])
        #expect(asa.contains("NOTE:edited here") && asa.contains("X-EVOLUTION-ONLY;TYPE=a:still here"))
        #expect(asa.contains("FN:Åsa Nyström") && ServedBook.image(in: asa) == ServedBook.image(2))
        #expect(third[try book.uid("New Local")] != nil)
        #expect(!third.values.contains { CardLines.first("FN", in: CardLines.lines($0)) == "Katie Bell" })
        #expect(ServedBook.image(in: try #require(third["zoe"])) == ServedBook.image(1))
        let friends = CardLines.lines(try card(named: "Friends", in: third))
        let members = friends.filter { CardLines.name(of: $0) == "X-ADDRESSBOOKSERVER-MEMBER" }
        #expect(members == ["X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(try book.uid("New Local"))"])
        #expect(friends.contains("NOTE:a group note"))
        let list = CardLines.lines(try #require(third["evolution-list"]))
        #expect(list.contains("X-EVOLUTION-LIST:TRUE"))
        #expect(list.contains { $0.hasPrefix("EMAIL;") && $0.contains("X-EVOLUTION-DEST-CONTACT-UID=") && $0.contains("Katie Bell") })
    }
}
