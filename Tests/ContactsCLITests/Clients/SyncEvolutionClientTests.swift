import Foundation
import TestTags
import Testing

/// SyncEvolution 2.0 (Debian 12) syncing a folder of vCards (its `file` backend) with
/// `contacts serve --commit` through its CardDAV backend, configured and run from the command
/// line by `Clients/syncevolution.sh` in a private home: a slow sync first, two-way syncs then.
@Suite(.serialized) struct SyncEvolutionClientTests {
    /// The driver script.
    static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "syncevolution.sh")

    static let program = "/usr/bin/syncevolution"

    static var available: Bool { FileManager.default.isExecutableFile(atPath: program) }

    static let installHint = "SyncEvolution (/usr/bin/syncevolution) is not installed: apt-get install syncevolution"

    /// Syncs in `mode` and returns the folder's cards by file name.
    private func sync(_ home: ClientHome, _ book: ServedBook, _ mode: String) throws -> [String: String] {
        try run(home, book, mode)
        return try files(home)
    }

    /// Runs the driver in `mode`; it must succeed and leave no process running.
    @discardableResult
    private func run(_ home: ClientHome, _ book: ServedBook, _ mode: String) throws -> CLIResult {
        let run = try home.run(
            ["/bin/sh", Self.script.path(percentEncoded: false), book.server.url.absoluteString, ServedBook.user,
             cards(home).path(percentEncoded: false), mode],
            environment: ["SYNCEVOLUTION_PASSWORD": ServedBook.password])
        try #require(run.status == 0, "syncevolution.sh \(mode) failed: \(run)")
        let left = home.endLeftoverProcesses()
        try #require(left.isEmpty, "syncevolution.sh left processes running: \(left)")
        return run
    }

    /// The folder's cards by file name.
    private func files(_ home: ClientHome) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: cards(home).path(percentEncoded: false)) {
            files[name] = try String(contentsOf: cards(home).appending(path: name), encoding: .utf8)
        }
        return files
    }

    /// SyncEvolution's folder of cards.
    private func cards(_ home: ClientHome) -> URL {
        home.folder("cards")
    }

    private func file(named name: String, in files: [String: String]) throws -> (name: String, card: String) {
        let found = try #require(files.first { CardLines.first("FN", in: CardLines.lines($0.value)) == name }, "no card \(name)")
        return (found.key, found.value)
    }

    /// Writes a card file again with `text` as its `NOTE`.
    private func note(_ text: String, on file: (name: String, card: String), in home: ClientHome) throws {
        var lines = CardLines.lines(file.card).filter { CardLines.name(of: $0) != "NOTE" }
        lines.insert("NOTE:\(text)", at: lines.count - 1)
        try CardLines.data(lines).write(to: cards(home).appending(path: file.name))
    }

    /// Skipped on a machine without SyncEvolution, except under CI (`CI` set), where its
    /// absence fails the test: `.ci/run` installs it.
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: available || ProcessInfo.processInfo.environment["CI"] != nil, "\(installHint)"))
    func syncEvolutionSyncsAFolderWithTheStoreBothWays() throws {
        try #require(Self.available, "\(Self.installHint)")
        let book = try ServedBook()
        let home = try ClientHome(sandbox: book.sandbox, name: "syncevolution")

        // Given the server's address, SyncEvolution finds the address book.
        let slow = try run(home, book, "slow")
        #expect(slow.stderr.contains("final URL path /\(ServedBook.user)/contacts/\n"), "\(slow.stderr)")
        let first = try files(home)
        try expectEveryCard(in: first, of: book)

        try changeTheFolder(home, syncedFirst: first)
        try run(home, book, "two-way")
        try expectTheFoldersChanges(in: book)
        let clientCommits = try book.serveCommits(count: 5)
        #expect(clientCommits.count == 5, "\(clientCommits)")
        #expect(clientCommits.allSatisfy { $0.contains(" with SyncEvolution") }, "\(clientCommits)")

        try book.changeTheStore(editing: "Åsa Nyström")
        let third = try sync(home, book, "two-way")
        try expectTheStoresChanges(in: third, of: book)
        #expect(try book.serveCommits() == clientCommits)

        try book.expectALastSyncChangesNothing(commits: clientCommits) { try sync(home, book, "two-way") == third }
    }

    /// The round every client must pass against `contacts serve --commit`: SyncEvolution
    /// uploads two cards added to the folder; the user removes one and edits the other there;
    /// after two syncs the store and the folder agree, the removed card stays removed, nothing
    /// was a conflict, and the last sync transferred no card.
    ///
    /// SyncEvolution reports each sync's changes per side (new, modified, removed, failed) and
    /// its conflicts: "no conflict" is a conflict count of 0 in every report, and no change
    /// the server refused as a conflict. "Transferred no card" is a last report with every
    /// count 0, and a last sync that sent the server no request that carries a card
    /// (``ServedBook/cardMethods``).
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: available || ProcessInfo.processInfo.environment["CI"] != nil, "\(installHint)"))
    func syncEvolutionKeepsTheRemovalAndTheEditOfCardsItUploaded() throws {
        try #require(Self.available, "\(Self.installHint)")
        let book = try ServedBook()
        let home = try ClientHome(sandbox: book.sandbox, name: "syncevolution")
        try run(home, book, "slow")
        try Data(ServedBook.card("file-1", "Client", "One", ["TEL;TYPE=CELL:+44 20 7946 0001"]).utf8)
            .write(to: cards(home).appending(path: "added-1"))
        try Data(ServedBook.card("file-2", "Client", "Two", ["EMAIL;TYPE=INTERNET:two@example.com"]).utf8)
            .write(to: cards(home).appending(path: "added-2"))
        let upload = try run(home, book, "two-way")
        #expect(try book.names() == ["Client One", "Client Two", "Katie Bell", "Kept Lines", "Local Leaver", "Zoë Ångström"])

        let uploaded = try files(home)
        try FileManager.default.removeItem(at: cards(home).appending(path: try file(named: "Client Two", in: uploaded).name))
        try note("edited in the file", on: try file(named: "Client One", in: uploaded), in: home)
        let second = try run(home, book, "two-way")
        let before = book.requests().count
        let third = try run(home, book, "two-way")
        let requests = book.requests()
        let lastSync = requests.dropFirst(before)
        #expect(try book.server.stop().status == 0)

        // Each sync reports the server's side, then the folder's: new, modified, removed,
        // failed on one side, the same on the other, then conflicts.
        for run in [upload, second, third] {
            #expect(Self.changeCounts(in: run.stdout).count == 2, "\(run.stdout)")
            #expect(Self.changeCounts(in: run.stdout).allSatisfy { $0.last == 0 }, "\(run.stdout)")
        }
        #expect(Self.changeCounts(in: second.stdout) == [[0, 1, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 1, 0, 0]], "\(second.stdout)")
        #expect(Self.changeCounts(in: third.stdout) == [[0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0]], "\(third.stdout)")
        #expect(!requests.contains { ServedBook.conflictStatuses.contains($0.status) }, "\(requests)")
        #expect(!lastSync.contains { ServedBook.cardMethods.contains($0.method) }, "\(lastSync)")

        #expect(try book.names() == ["Client One", "Katie Bell", "Kept Lines", "Local Leaver", "Zoë Ångström"])
        #expect(try book.sandbox.succeed(["show", try book.id("Client One")]).stdout.contains("edited in the file"))
        let folder = try files(home)
        #expect(folder.count == 6)
        #expect(!folder.values.contains { CardLines.first("FN", in: CardLines.lines($0)) == "Client Two" })
        #expect(CardLines.first("NOTE", in: CardLines.lines(try file(named: "Client One", in: folder).card)) == "edited in the file")
    }

    /// The counts of SyncEvolution's report tables, one row per table: the address book's
    /// `NEW | MOD | DEL | ERR` on each side, then `CONFLICTS`.
    private static func changeCounts(in report: String) -> [[Int]] {
        report.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.first == "addressbook" else { return nil }
            return cells.dropFirst().compactMap { Int($0) }
        }
    }

    /// The slow sync brings every card, the image and the names beyond ASCII. SyncEvolution
    /// keeps the group card as an ordinary contact, its Apple lines untouched; it keeps unknown
    /// X- lines but drops a label (`item1.X-ABLabel`) that labels no other line.
    private func expectEveryCard(in first: [String: String], of book: ServedBook) throws {
        #expect(first.count == 5)
        let kept = try file(named: "Kept Lines", in: first).card
        #expect(kept.contains("X-UNKNOWN;X-P=1:kept") && !kept.contains("X-ABLabel"))
        let zoe = try file(named: "Zoë Ångström", in: first).card
        #expect(zoe.contains("N:Ångström;Zoë;;;") && ServedBook.image(in: zoe) == ServedBook.image(1))
        let friends = try file(named: "Friends", in: first).card
        #expect(friends.contains("X-ADDRESSBOOKSERVER-KIND:group"))
        #expect(friends.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(try book.uid("Katie Bell"))"))
    }

    /// In the folder: one edited, two added (one with a line the store does not model, an
    /// image and a name beyond ASCII), one removed, and a note on the group card.
    private func changeTheFolder(_ home: ClientHome, syncedFirst first: [String: String]) throws {
        try note("edited in the file", on: try file(named: "Kept Lines", in: first), in: home)
        try note("a group note", on: try file(named: "Friends", in: first), in: home)
        let asa = ServedBook.card("file-1", "Åsa", "Nyström", ["X-FILE-ONLY;TYPE=a:still here", ServedBook.photoLine(ServedBook.image(2))])
        try Data(asa.utf8).write(to: cards(home).appending(path: "added-1"))
        try Data(ServedBook.card("file-2", "Olivia", "Wood", ["EMAIL;TYPE=INTERNET:olivia@example.com"]).utf8)
            .write(to: cards(home).appending(path: "added-2"))
        try FileManager.default.removeItem(at: cards(home).appending(path: try file(named: "Local Leaver", in: first).name))
    }

    /// In the store, exactly the folder's changes. What SyncEvolution sends back is all the
    /// store can keep: the label it dropped is gone. The group card edited in the folder is
    /// still the group, with its member.
    private func expectTheFoldersChanges(in book: ServedBook) throws {
        #expect(try book.names() == ["Katie Bell", "Kept Lines", "Olivia Wood", "Zoë Ångström", "Åsa Nyström"])
        #expect(try book.sandbox.succeed(["show", try book.id("Kept Lines")]).stdout.contains("edited in the file"))
        #expect(try book.unmodelledLines("Kept Lines") == ["X-UNKNOWN;X-P=1:kept"])
        #expect(try book.unmodelledLines("Åsa Nyström").contains("X-FILE-ONLY;TYPE=a:still here"))
        #expect(try book.images() == [ServedBook.image(1), ServedBook.image(2)])
        #expect(try book.sandbox.succeed(["group", "members", "Friends"]).stdout.contains("Katie Bell"))
    }

    /// The store's changes as the folder must have them, beside what was added there: the
    /// group's note came back from the store with its new member.
    private func expectTheStoresChanges(in third: [String: String], of book: ServedBook) throws {
        let asa = try file(named: "Åsa Nyström", in: third).card
        #expect(asa.contains("NOTE:edited here") && asa.contains("X-FILE-ONLY;TYPE=a:still here"))
        #expect(ServedBook.image(in: asa) == ServedBook.image(2))
        #expect(try file(named: "New Local", in: third).card.contains("N:Local;New;;;"))
        #expect(!third.values.contains { $0.contains("Katie Bell") })
        #expect(ServedBook.image(in: try file(named: "Zoë Ångström", in: third).card) == ServedBook.image(1))
        let friends = CardLines.lines(try file(named: "Friends", in: third).card)
        let members = friends.filter { CardLines.name(of: $0) == "X-ADDRESSBOOKSERVER-MEMBER" }
        #expect(members == ["X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(try book.uid("New Local"))"])
        #expect(friends.contains("NOTE:a group note"))
    }
}
