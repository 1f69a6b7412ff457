import DAVTestSupport
import Foundation
import PlainContacts
import PlainContactsDAV
import Testing

/// `contacts sync` end to end: the built binary against Radicale and Xandikos started on
/// 127.0.0.1, with the server's side read and changed over CardDAV.
@Suite(.serialized) struct SyncCommandTests {
    /// A store with a remote named `dav` for `server`, found by discovery from the server's root.
    private func sandbox(for server: DAVTestServer) throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["remote", "add", "dav", server.baseURL.absoluteString, "--user", server.user], environment: env(server))
        return sandbox
    }

    private func env(_ server: DAVTestServer) -> [String: String] {
        ["CONTACTS_REMOTE_PASSWORD": server.password]
    }

    private func remote(_ server: DAVTestServer) throws -> CardDAVAddressBook {
        try CardDAVAddressBook(url: server.addressBookURL, credentials: RemoteCredentials(user: server.user, password: server.password))
    }

    private static func card(_ uid: String, _ first: String, _ last: String, _ extra: [String] = []) -> Data {
        let lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "N:\(last);\(first);;;", "FN:\(first) \(last)"] + extra + ["END:VCARD"]
        return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// The server's cards as text, by href.
    private func serverCards(_ server: DAVTestServer) throws -> [String: String] {
        let book = try remote(server)
        let cards = try book.fetchCards(try book.listCards().map(\.href))
        return Dictionary(uniqueKeysWithValues: cards.map { ($0.href, String(decoding: $0.data, as: UTF8.self)) })
    }

    private func serverETags(_ server: DAVTestServer) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try remote(server).listCards().map { ($0.href, $0.etag) })
    }

    /// Every record file of the store, by path.
    private func recordFiles(_ sandbox: CLISandbox) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for folder in ["people", "groups"] {
            let url = sandbox.store.appending(path: folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                files["\(folder)/\(name)"] = try Data(contentsOf: url.appending(path: name))
            }
        }
        return files
    }

    /// The record ID of the person `list` shows with this name.
    private func id(_ name: String, in sandbox: CLISandbox) throws -> String {
        let line = try #require(try sandbox.succeed(["list"]).lines.first { $0.split(separator: "\t")[1] == name })
        return String(line.split(separator: "\t")[0])
    }

    private func names(_ sandbox: CLISandbox) throws -> [String] {
        try sandbox.succeed(["list"]).lines.map { $0.split(separator: "\t")[1] }.map(String.init).sorted()
    }

    // MARK: Scenarios

    @Test(arguments: [DAVTestServer.Kind.radicale(password: nil), .xandikos])
    func firstSyncBothWaysMatchesByUIDAndASecondSyncRewritesNothing(kind: DAVTestServer.Kind) throws {
        let server = try DAVTestServer(kind)
        let sandbox = try sandbox(for: server)
        let shared = Self.card("shared-1", "Katie", "Bell", ["TEL;TYPE=CELL:+44 20 7946 0001"])
        let file = sandbox.root.appending(path: "shared.vcf")
        try shared.write(to: file)
        try sandbox.succeed(["import", file.path])
        try sandbox.add(["John Appleseed", "--phone", "+1 555 0100"])
        let book = try remote(server)
        _ = try book.createCard(named: "shared-1.vcf", data: shared)
        _ = try book.createCard(named: "r-1.vcf", data: Self.card("r-1", "Remote", "One", ["X-UNKNOWN;X-P=1:kept"]))

        let first = try sandbox.run(["sync", "--json"], environment: env(server))
        #expect(first.status == 0, "\(first)")

        #expect(try names(sandbox) == ["John Appleseed", "Katie Bell", "Remote One"])
        #expect(try serverCards(server).count == 3)
        let files = try recordFiles(sandbox)
        let etags = try serverETags(server)

        let second = try sandbox.run(["sync", "--json"], environment: env(server))
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("\"added\": 0"))
        // The time a request was in flight, part of the sync's.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        let waited = try #require(report["serverSeconds"] as? Double)
        #expect(waited > 0 && waited < 60)
        #expect(try recordFiles(sandbox) == files)
        #expect(try serverETags(server) == etags)
    }

    @Test func editsAdditionsAndRemovalsTravelBothWaysKeepingUnknownLines() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let sandbox = try sandbox(for: server)
        let book = try remote(server)
        let kept = try book.createCard(
            named: "k.vcf", data: Self.card("k", "Kept", "Lines", ["item1.TEL;TYPE=pref:+1 555 0199", "item1.X-ABLabel:Lab", "X-UNKNOWN:kept"]))
        let gone = try book.createCard(named: "g.vcf", data: Self.card("g", "Gone", "Remote", []))
        try sandbox.add(["Local Leaver"])
        try sandbox.succeed(["sync"], environment: env(server))

        // On the server: one edited, one removed, one added. In the store: one edited, one removed, one added.
        _ = try book.updateCard(at: gone.href, data: Self.card("g", "Gone", "Remote", ["NOTE:edited on the phone"]), etag: gone.etag)
        _ = try book.createCard(named: "n.vcf", data: Self.card("n", "New", "Phone", []))
        try sandbox.succeed(["set", try id("Kept Lines", in: sandbox), "note=edited here"])
        try sandbox.succeed(["rm", try id("Local Leaver", in: sandbox)])
        try sandbox.add(["New Local"])
        let removedOnServer = try #require(try book.listCards().first { $0.href == gone.href })
        try book.deleteCard(at: removedOnServer.href, etag: removedOnServer.etag)

        try sandbox.succeed(["sync"], environment: env(server))

        #expect(try names(sandbox) == ["Kept Lines", "New Local", "New Phone"])
        let cards = try serverCards(server)
        #expect(cards.count == 3)
        // Radicale writes property names in capitals (item1.X-ABLABEL) whatever it was sent.
        let keptText = try #require(cards[kept.href])
        #expect(keptText.contains("NOTE:edited here"))
        #expect(keptText.uppercased().contains("ITEM1.X-ABLABEL:LAB") && keptText.contains("X-UNKNOWN:kept"))
        #expect(keptText.contains("item1.TEL;TYPE=pref:+1 555 0199"))
        #expect(cards.values.contains { $0.contains("FN:New Local") })
        #expect(!cards.values.contains { $0.contains("Local Leaver") })
    }

    @Test func aConflictExits75UntilAPreferenceSettlesIt() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let sandbox = try sandbox(for: server)
        let book = try remote(server)
        let created = try book.createCard(named: "c.vcf", data: Self.card("c", "John", "Appleseed", ["NOTE:old"]))
        try sandbox.succeed(["sync"], environment: env(server))
        let john = try id("John Appleseed", in: sandbox)
        try sandbox.succeed(["set", john, "note=from the store"])
        _ = try book.updateCard(at: created.href, data: Self.card("c", "John", "Appleseed", ["NOTE:from the phone"]), etag: created.etag)

        let conflicted = try sandbox.run(["sync"], environment: env(server))
        #expect(conflicted.status == 75)
        #expect(try sandbox.succeed(["show", john, "--json"]).stdout.contains("from the store"))
        #expect(try serverCards(server)[created.href]?.contains("NOTE:from the phone") == true)

        #expect(try sandbox.run(["sync"], environment: env(server)).status == 75)
        try sandbox.succeed(["sync", "--prefer", "remote"], environment: env(server))
        #expect(try sandbox.succeed(["show", john, "--json"]).stdout.contains("from the phone"))
        #expect(try sandbox.run(["sync"], environment: env(server)).status == 0)
    }

    @Test func aWrongPasswordExits77AndLeavesTheStoreUntouched() throws {
        let server = try DAVTestServer(.radicale(password: "right horse"))
        let sandbox = try sandbox(for: server)
        try sandbox.add(["Katie Bell"])
        let files = try recordFiles(sandbox)

        let refused = try sandbox.run(["sync"], environment: ["CONTACTS_REMOTE_PASSWORD": "wrong horse"])

        #expect(refused.status == 77)
        #expect(!refused.stderr.contains("wrong horse"))
        #expect(try recordFiles(sandbox) == files)
        #expect(try serverCards(server).isEmpty)
        #expect(try sandbox.run(["sync"], environment: env(server)).status == 0)
    }

    @Test func aServerKilledMidSyncExits69AndTheNextSyncCompletesWithoutDuplicates() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let sandbox = try sandbox(for: server)
        let people = 300
        let text = (0..<people).map { String(decoding: Self.card("p-\($0)", "Person", "Number\($0)"), as: UTF8.self) }.joined()
        let file = sandbox.root.appending(path: "many.vcf")
        try Data(text.utf8).write(to: file)
        try sandbox.succeed(["import", file.path])
        _ = try remote(server).createCard(named: "r.vcf", data: Self.card("r", "Remote", "Only", []))

        // Kill the server once the sync has uploaded some cards; the test waits for the thread.
        nonisolated(unsafe) let target = server
        let folder = server.folder
        let killer = Thread {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let uploaded = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".vcf") }.count ?? 0
                if uploaded > 20 { break }
                Thread.sleep(forTimeInterval: 0.01)
            }
            target.kill()
        }
        killer.start()
        let cut = try sandbox.run(["sync"], environment: env(server))
        while !killer.isFinished { Thread.sleep(forTimeInterval: 0.05) }
        #expect(cut.status == 69, "\(cut)")

        try server.restart()
        let completed = try sandbox.run(["sync"], environment: env(server))
        #expect(completed.status == 0, "\(completed)")
        #expect(try names(sandbox).count == people + 1)
        let cards = try serverCards(server)
        #expect(cards.count == people + 1)
        let uids = cards.values.compactMap { text in text.components(separatedBy: .newlines).first { $0.hasPrefix("UID:") } }
        #expect(Set(uids).count == people + 1)
        #expect(try sandbox.run(["sync", "--json"], environment: env(server)).stdout.contains("\"added\": 0"))
    }

    @Test func aFirstSyncKilledAtAnyMomentLeavesNoneOrAllOfItsRecordsAndTheNextCompletesIt() throws {
        let server = try DAVTestServer(.xandikos)
        let people = 200
        let book = try remote(server)
        for number in 0..<people {
            _ = try book.createCard(named: "p-\(number).vcf", data: Self.card("p-\(number)", "Person", "Number\(number)"))
        }
        // How long a whole first sync takes here, to kill the others at moments spread over it.
        let calibration = try sandbox(for: server)
        let clock = ContinuousClock()
        let start = clock.now
        try calibration.succeed(["sync"], environment: env(server))
        let elapsed = (clock.now - start).components
        let whole = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        #expect(try names(calibration).count == people)

        for fraction in [0.3, 0.5, 0.55, 0.6, 0.65, 0.7, 0.9] {
            let sandbox = try sandbox(for: server)
            var environment = sandbox.baseEnvironment
            for (key, value) in env(server) { environment[key] = value }
            let pid = try ChildProcess.spawn(
                [try ContactsBinary.url().path(percentEncoded: false), "sync"], environment: environment, folder: sandbox.root)
            Thread.sleep(forTimeInterval: whole * fraction)
            kill(pid, SIGKILL)
            _ = try ChildProcess.wait(pid, program: "contacts sync")

            // The save of the first sync is one transaction: none of its records, or all.
            let left = try names(sandbox).count
            #expect(left == 0 || left == people, "killed at \(fraction) of a sync: \(left) people")
            try sandbox.succeed(["sync"], environment: env(server))
            let after = try names(sandbox)
            #expect(after.count == people && Set(after).count == people, "after the sync killed at \(fraction)")
            #expect(try sandbox.run(["doctor"]).status == 0)
        }
        #expect(try serverCards(server).count == people)
    }

    @Test func aSecondCloneSyncingTheSameAccountDuplicatesNobody() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let sandbox = try sandbox(for: server)
        try sandbox.add(["Katie Bell"])
        _ = try remote(server).createCard(named: "r.vcf", data: Self.card("r", "Remote", "One", []))
        try sandbox.succeed(["sync"], environment: env(server))

        let clone = try CLISandbox()
        try FileManager.default.copyItem(at: sandbox.store, to: clone.store)
        try FileManager.default.removeItem(at: clone.store.appending(path: ".contacts"))
        try clone.succeed(["remote", "add", "dav", server.addressBookURL.absoluteString, "--user", server.user], environment: env(server))
        let result = try clone.succeed(["sync", "--json"], environment: env(server))

        #expect(!result.stdout.contains("\"added\": 1"))
        #expect(try serverCards(server).count == 2)
        #expect(try names(clone) == ["Katie Bell", "Remote One"])
    }

    @Test func theRemovalGuardRefusesEmptyingAServerWithoutForce() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let sandbox = try sandbox(for: server)
        for index in 0..<8 { try sandbox.add(["Person\(index) Test"]) }
        try sandbox.succeed(["sync"], environment: env(server))
        let ids = try sandbox.succeed(["list"]).lines.map { String($0.split(separator: "\t")[0]) }
        try sandbox.succeed(["rm"] + ids)

        let refused = try sandbox.run(["sync"], environment: env(server))
        #expect(refused.status == 75)
        #expect(try serverCards(server).count == 8)

        try sandbox.succeed(["sync", "--force"], environment: env(server))
        #expect(try serverCards(server).isEmpty)
    }

    @Test func groupsInBothFormsBecomeGroupsAndNewGroupsUseApplesForm() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let sandbox = try sandbox(for: server)
        let book = try remote(server)
        _ = try book.createCard(named: "m1.vcf", data: Self.card("m1", "Katie", "Bell", []))
        _ = try book.createCard(named: "m2.vcf", data: Self.card("m2", "John", "Appleseed", []))
        let apple = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Friends\r\nFN:Friends\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nUID:g-apple\r\n"
            + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:m1\r\nEND:VCARD\r\n"
        let rfc = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Team\r\nKIND:group\r\nUID:g-rfc\r\nMEMBER:urn:uuid:m2\r\nEND:VCARD\r\n"
        let friends = try book.createCard(named: "g-apple.vcf", data: Data(apple.utf8))
        let team = try book.createCard(named: "g-rfc.vcf", data: Data(rfc.utf8))

        try sandbox.succeed(["sync"], environment: env(server))

        #expect(try sandbox.succeed(["group", "members", "Friends"]).stdout.contains("Katie Bell"))
        #expect(try sandbox.succeed(["group", "members", "Team"]).stdout.contains("John Appleseed"))

        try sandbox.succeed(["group", "add", "Team", try id("Katie Bell", in: sandbox)])
        try sandbox.succeed(["group", "create", "Family"])
        try sandbox.succeed(["group", "add", "Family", try id("John Appleseed", in: sandbox)])
        try sandbox.succeed(["sync"], environment: env(server))

        let cards = try serverCards(server)
        let teamText = try #require(cards[team.href])
        #expect(teamText.contains("KIND:group") && teamText.contains("MEMBER:urn:uuid:m1") && teamText.contains("MEMBER:urn:uuid:m2"))
        #expect(!teamText.contains("X-ADDRESSBOOKSERVER"))
        #expect(cards[friends.href]?.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:m1") == true)
        let family = try #require(cards.values.first { $0.contains("FN:Family") })
        #expect(family.contains("X-ADDRESSBOOKSERVER-KIND:group") && family.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:m2"))
    }

    @Test func aDryRunChangesNothingAndSaysWhatItWouldDo() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let sandbox = try sandbox(for: server)
        try sandbox.add(["Katie Bell"])
        _ = try remote(server).createCard(named: "r.vcf", data: Self.card("r", "Remote", "One", []))
        let files = try recordFiles(sandbox)

        let result = try sandbox.succeed(["sync", "--dry-run"], environment: env(server))

        #expect(result.stdout.hasPrefix("would sync dav"))
        #expect(try recordFiles(sandbox) == files)
        #expect(try serverCards(server).count == 1)
    }

    @Test func withCommitASyncIsOneCommitNamingTheRemoteAndTheCounts() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("repo")
        try git.succeed(
            [
                "remote", "add", "dav", server.addressBookURL.absoluteString, "--user", server.user, "--password-command",
                "echo \(server.password)", "--no-discover",
            ], in: repository)
        let book = try remote(server)
        _ = try book.createCard(named: "a.vcf", data: Self.card("a", "Katie", "Bell", []))
        _ = try book.createCard(named: "b.vcf", data: Self.card("b", "John", "Appleseed", []))

        try git.succeed(["--commit", "sync"], in: repository)

        let subjects = try git.git(["log", "--format=%s"], in: repository).lines
        #expect(subjects.count == 2)
        #expect(subjects.first == "contacts: sync dav: 2 added, 0 changed, 0 removed here, 0 added, 0 changed, 0 removed on the server")
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
    }

    // MARK: A server that does not stop

    /// The most memory a sync reading an endless answer may hold: the client's 256 MiB bound
    /// on a body, half of it again should the buffer be copied as it grows, and the program's
    /// own few tens of megabytes (about 295 MiB in all here); far below the gigabytes a server
    /// streams to a client that keeps reading (10.7 GB in 40 s before the bound). Measured by
    /// `plaincontacts-crash-helper measure`: the test runner's own memory, which the kernel
    /// charges to the children it spawns, passed this bound by itself in a full run.
    static let peakKilobytesReadingAnEndlessAnswer = 512 * 1024

    /// The start of every multistatus the scripted servers send.
    private static let multistatusHead =
        #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">"#

    /// A scripted server with one card and one token: the first `sync-collection` is answered
    /// whole, an upload is taken, and a `sync-collection` since the token gets `later`.
    private func scriptedServer(later: ScriptedHTTPServer.Reply) throws -> ScriptedHTTPServer {
        let card = "BEGIN:VCARD\nVERSION:3.0\nUID:r-1\nN:One;Remote;;;\nFN:Remote One\nEND:VCARD\n"
        let first = Self.multistatusHead
            + #"<d:response><d:href>/book/r-1.vcf</d:href><d:propstat><d:prop><d:getetag>"r1"</d:getetag>"#
            + "<card:address-data>\(card)</card:address-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
            + "<d:sync-token>http://127.0.0.1/token/1</d:sync-token></d:multistatus>"
        return try ScriptedHTTPServer { request in
            switch request.method {
            case "REPORT" where String(decoding: request.body, as: UTF8.self).contains("token/1"):
                later
            case "REPORT":
                .complete(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Data(first.utf8))
            case "PUT":
                .complete(status: 201, headers: ["ETag": #""l1""#])
            default:
                .complete(status: 404)
            }
        }
    }

    /// The scripted server whose `sync-collection` since its token is a multistatus streamed
    /// without end.
    private func endlessServer() throws -> ScriptedHTTPServer {
        let endless = #"<d:response><d:href>/book/c.vcf</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"#
        return try scriptedServer(
            later: .endlessChunks(
                status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], prefix: Data(Self.multistatusHead.utf8),
                repeating: Data(endless.utf8)))
    }

    /// A store with one person, synced once with `server` as the remote `dav`; its URL.
    private func syncedOnce(with server: ScriptedHTTPServer) throws -> (CLISandbox, String) {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["Local Person"])
        let url = server.url("/book/").absoluteString
        try sandbox.succeed(["remote", "add", "dav", url, "--no-discover"])
        try sandbox.succeed(["sync"])
        return (sandbox, url)
    }

    /// The files of the store outside `.contacts/`, and those of the remote's sync status.
    private func storeAndStatus(_ sandbox: CLISandbox) throws -> [String: Data] {
        var files = try sandbox.snapshot()
        let status = sandbox.store.appending(path: ".contacts/sync/dav")
        for name in try FileManager.default.contentsOfDirectory(atPath: status.path(percentEncoded: false)) {
            files[".contacts/sync/dav/" + name] = try Data(contentsOf: status.appending(path: name))
        }
        return files
    }

    @Test func anEndlessAnswerExits65NamingTheURLWithBoundedMemoryAndChangesNothing() throws {
        let server = try endlessServer()
        let (sandbox, url) = try syncedOnce(with: server)
        #expect(try names(sandbox) == ["Local Person", "Remote One"])
        let before = try storeAndStatus(sandbox)
        #expect(before.keys.contains { $0.hasPrefix(".contacts/sync/dav/") })

        let result = try sandbox.run(["sync"], measuringPeak: true)

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(url), "\(result)")
        #expect(result.peakKilobytes > 0 && result.peakKilobytes < Self.peakKilobytesReadingAnEndlessAnswer, "\(result.peakKilobytes) kB")
        #expect(try storeAndStatus(sandbox) == before)
        #expect(server.requests.filter { $0.method == "REPORT" }.count == 2)
    }

    // MARK: An answer no XML parser should be handed

    @Test(arguments: ["d:\u{FF}", "\u{FF}", "\u{FF}:getetag"])
    func aMultistatusWithABadByteInANameExits65AndChangesNothing(_ name: String) throws {
        // The name's U+00FF stands for the byte 0xFF alone, which no UTF-8 has.
        let bad = Self.multistatusHead + "<d:response><d:href>/book/c.vcf</d:href><d:propstat><d:prop><\(name)>\"1\"</\(name)></d:prop>"
            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
        let badBytes = Data(bad.unicodeScalars.flatMap { $0.value == 0xFF ? [0xFF] : Array(String($0).utf8) })
        let server = try scriptedServer(
            later: .complete(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: badBytes))
        let (sandbox, url) = try syncedOnce(with: server)
        let before = try storeAndStatus(sandbox)

        let result = try sandbox.run(["sync"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(url) && result.stderr.contains("not valid UTF-8"), "\(result)")
        #expect(try storeAndStatus(sandbox) == before)
    }
}
