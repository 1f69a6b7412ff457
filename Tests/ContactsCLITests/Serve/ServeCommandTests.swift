import DAVTestSupport
import Foundation
import Glibc
import Testing

/// Debian's vdirsyncer, 0.19 in Debian 12, which `.ci/run` installs beside `.venv-dav`'s 0.21.
let debianVdirsyncer = URL(filePath: "/usr/bin/vdirsyncer")

/// Whether Debian's vdirsyncer is installed.
let debianVdirsyncerAvailable = FileManager.default.isExecutableFile(atPath: debianVdirsyncer.path(percentEncoded: false))

/// `contacts serve` end to end: the built binary serving a store on 127.0.0.1, with vdirsyncer
/// 0.21 and Debian's 0.19 (clients nobody here wrote) syncing a vdir with it both ways, and raw
/// HTTP requests for what a client must not get away with.
@Suite(.serialized) struct ServeCommandTests {
    /// A cheap password hash for the debug binary's accounts.
    private static let testIterations = ["CONTACTS_TEST_PASSWORD_ITERATIONS": "1000"]

    private static func card(_ uid: String, _ first: String, _ last: String, _ extra: [String] = []) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "FN:\(first) \(last)", "N:\(last);\(first);;;"] + extra + ["END:VCARD"])
            .joined(separator: "\r\n") + "\r\n"
    }

    private func names(_ sandbox: CLISandbox) throws -> [String] {
        try sandbox.succeed(["list"]).lines.map { $0.split(separator: "\t")[1] }.map(String.init).sorted()
    }

    private func id(_ name: String, in sandbox: CLISandbox) throws -> String {
        let line = try #require(try sandbox.succeed(["list"]).lines.first { $0.split(separator: "\t")[1] == name })
        return String(line.split(separator: "\t")[0])
    }

    /// The vdir's cards, by file name.
    private func vdirCards(_ pair: VdirsyncerPair) throws -> [String: String] {
        var cards: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path) where name.hasSuffix(".vcf") {
            cards[name] = try String(contentsOf: pair.vdir.appending(path: name), encoding: .utf8)
        }
        return cards
    }

    private func sync(_ pair: VdirsyncerPair) throws {
        let run = try pair.sync()
        try #require(run.status == 0, "vdirsyncer sync failed: \(run.output)")
    }

    private func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    // MARK: vdirsyncer

    @Test func vdirsyncer021SyncsAVdirWithTheStoreBothWays() throws {
        try syncAVdirWithTheStoreBothWays(program: try DAVServerInstallation.executable("vdirsyncer"), version: "0.21.0")
    }

    /// Skipped on a machine without Debian's vdirsyncer, except under CI (`CI` set), where its
    /// absence fails the test: `.ci/run` installs it.
    @Test(
        .enabled(
            if: debianVdirsyncerAvailable || ProcessInfo.processInfo.environment["CI"] != nil,
            "Debian's vdirsyncer (/usr/bin/vdirsyncer) is not installed: apt-get install vdirsyncer"))
    func debianVdirsyncerSyncsAVdirWithTheStoreBothWays() throws {
        try #require(debianVdirsyncerAvailable, "Debian's vdirsyncer (/usr/bin/vdirsyncer) is not installed: apt-get install vdirsyncer")
        try syncAVdirWithTheStoreBothWays(program: debianVdirsyncer, version: nil)
    }

    @Test func vdirsyncer021KeepsTheRemovalAndTheEditOfCardsItUploaded() throws {
        try uploadThenRemoveAndEditOnTheClient(program: try DAVServerInstallation.executable("vdirsyncer"))
    }

    @Test(
        .enabled(
            if: debianVdirsyncerAvailable || ProcessInfo.processInfo.environment["CI"] != nil,
            "Debian's vdirsyncer (/usr/bin/vdirsyncer) is not installed: apt-get install vdirsyncer"))
    func debianVdirsyncerKeepsTheRemovalAndTheEditOfCardsItUploaded() throws {
        try #require(debianVdirsyncerAvailable, "Debian's vdirsyncer (/usr/bin/vdirsyncer) is not installed: apt-get install vdirsyncer")
        try uploadThenRemoveAndEditOnTheClient(program: debianVdirsyncer)
    }

    /// The round every client must pass against `contacts serve --commit`: it uploads two new
    /// cards; the user removes one and edits the other on the client; after two syncs the store
    /// and the client agree, the removed card stays removed, nothing was a conflict, and the last
    /// sync transferred no card. (A `PUT` answered without an ETag made vdirsyncer 0.19 take
    /// every card it uploaded for changed on the server, which beat the removal.)
    private func uploadThenRemoveAndEditOnTheClient(program: URL) throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        try git.git(["init", "--quiet", "--initial-branch=main"], in: sandbox.root)
        try sandbox.initStore()
        try sandbox.add(["Store Person"])
        try git.git(["add", "book"], in: sandbox.root)
        try git.git(["commit", "--quiet", "-m", "Seed the store"], in: sandbox.root)
        let server = try ServeProcess(sandbox: sandbox, arguments: ["--commit"], environment: try git.environment)
        let pair = try VdirsyncerPair(
            folder: sandbox.root.appending(path: "vdirsyncer"), addressBook: server.url.appending(path: "me/contacts/"),
            user: "any", password: "any", program: program)
        try sync(pair)
        let one = Self.card("cli1-a7c3", "Client", "One", ["TEL;TYPE=CELL:+44 20 7946 0001"])
        let two = Self.card("cli2-b8d4", "Client", "Two", ["EMAIL;TYPE=INTERNET:two@example.com"])
        try Data(one.utf8).write(to: pair.vdir.appending(path: "cli1-a7c3.vcf"))
        try Data(two.utf8).write(to: pair.vdir.appending(path: "cli2-b8d4.vcf"))
        try sync(pair)
        #expect(try names(sandbox) == ["Client One", "Client Two", "Store Person"])

        try FileManager.default.removeItem(at: pair.vdir.appending(path: "cli2-b8d4.vcf"))
        let edited = one.replacingOccurrences(of: "END:VCARD", with: "NOTE:edited on the client\r\nEND:VCARD")
        try Data(edited.utf8).write(to: pair.vdir.appending(path: "cli1-a7c3.vcf"))
        let second = try pair.sync()
        let third = try pair.sync()

        for run in [second, third] {
            #expect(run.status == 0, "\(run.output)")
            #expect(!run.output.lowercased().contains("conflict"), "\(run.output)")
        }
        #expect(!third.output.contains("Copying") && !third.output.contains("Deleting"), "\(third.output)")
        #expect(try names(sandbox) == ["Client One", "Store Person"])
        #expect(try sandbox.succeed(["show", try id("Client One", in: sandbox)]).stdout.contains("edited on the client"))
        let cards = try vdirCards(pair)
        #expect(cards.count == 2 && cards["cli2-b8d4.vcf"] == nil)
        #expect(cards["cli1-a7c3.vcf"] == edited)
        #expect(try server.stop().status == 0)
    }

    /// An image the store keeps as a `.png`: PNG's signature, then 200 bytes counting up from
    /// `seed`, long enough for a folded `PHOTO` line.
    private static func image(_ seed: UInt8) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<200).map { seed &+ UInt8($0) })
    }

    private static func photoLine(_ image: Data) -> String {
        "PHOTO;ENCODING=b;TYPE=PNG:" + image.base64EncodedString()
    }

    /// The image of a card's `PHOTO`, in 3.0's form or 4.0's `data:` URI.
    private func image(in card: String) -> Data? {
        guard let value = CardLines.first("PHOTO", in: CardLines.lines(card)) else { return nil }
        return Data(base64Encoded: value.components(separatedBy: "base64,").last ?? value)
    }

    /// The commits `contacts serve --commit` made, newest first.
    private func serveCommits(_ git: GitRepositories, in repository: URL) throws -> [String] {
        try git.git(["log", "--format=%s"], in: repository).lines.filter { $0.hasPrefix("contacts: serve: ") }
    }

    /// One vdirsyncer against `contacts serve --commit`: the store's cards into an empty vdir,
    /// then a round of changes on each side (two cards added, one edited, one removed), a group,
    /// images and names beyond ASCII carried both ways, each client change one commit, and a
    /// last sync that changes nothing.
    private func syncAVdirWithTheStoreBothWays(program: URL, version: String?) throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        try git.git(["init", "--quiet", "--initial-branch=main"], in: sandbox.root)
        try seedTheStore(sandbox)
        try git.git(["add", "book"], in: sandbox.root)
        try git.git(["commit", "--quiet", "-m", "Seed the store"], in: sandbox.root)
        let server = try ServeProcess(sandbox: sandbox, arguments: ["--commit"], environment: try git.environment)
        let pair = try VdirsyncerPair(
            folder: sandbox.root.appending(path: "vdirsyncer"), addressBook: server.url.appending(path: "me/contacts/"),
            user: "any", password: "any", program: program)
        let printed = try pair.run(["--version"]).output
        if let version { try #require(printed.contains("version \(version)"), "\(program.path): \(printed)") }

        try sync(pair)

        let vdir = try vdirCards(pair)
        #expect(vdir.count == 5)
        let kept = try #require(vdir.first { $0.value.contains("UID:kept") })
        #expect(kept.value.contains("X-UNKNOWN;X-P=1:kept") && kept.value.contains("item1.X-ABLabel:Lab"))
        let friends = try #require(vdir.values.first { $0.contains("FN:Friends") })
        #expect(friends.contains("X-ADDRESSBOOKSERVER-KIND:group") && friends.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:"))
        let zoe = try #require(vdir.values.first { $0.contains("FN:Zoë Ångström") })
        #expect(zoe.contains("N:Ångström;Zoë;;;") && image(in: zoe) == Self.image(1))

        try changeTheVdir(pair, syncedFirst: vdir)
        try sync(pair)

        #expect(try names(sandbox) == ["Katie Bell", "Kept Lines", "Zoë Ångström", "Åsa Nyström"])
        #expect(try sandbox.succeed(["show", try id("Kept Lines", in: sandbox)]).stdout.contains("edited on the phone"))
        #expect(try sandbox.succeed(["group", "members", "Team"]).stdout.contains("Åsa Nyström"))
        let images = try sandbox.storeFiles(in: "people").filter { $0.hasSuffix(".png") }
            .map { try Data(contentsOf: sandbox.storeFile("people/\($0)")) }
        #expect(Set(images) == [Self.image(1), Self.image(2)])
        let clientCommits = try ServedBook.serveCommits(count: 4) { try serveCommits(git, in: sandbox.root) }
        #expect(clientCommits.count == 4, "\(clientCommits)")
        #expect(clientCommits.allSatisfy { $0.contains(" with vdirsyncer/") }, "\(clientCommits)")

        try changeTheStore(sandbox, environment: try git.environment)
        try sync(pair)

        try expectTheStoresChanges(in: try vdirCards(pair))
        #expect(try serveCommits(git, in: sandbox.root) == clientCommits)

        // A last sync with nothing changed rewrites nothing on either side and commits nothing.
        let storeFiles = try sandbox.snapshot()
        let vdirFiles = try vdirCards(pair)
        try sync(pair)
        #expect(try sandbox.snapshot() == storeFiles)
        #expect(try vdirCards(pair) == vdirFiles)
        #expect(try serveCommits(git, in: sandbox.root) == clientCommits)
        #expect(try git.git(["status", "--porcelain", "--", "book"], in: sandbox.root).stdout.isEmpty)
        #expect(try server.stop().status == 0)
    }

    /// Cards with a line the store does not model and a label, one to be removed on the phone,
    /// one with an image and a name beyond ASCII, and a person in a group.
    private func seedTheStore(_ sandbox: CLISandbox) throws {
        try sandbox.initStore()
        let cards = sandbox.temporary.appending(path: "cards.vcf")
        try Data((Self.card("kept", "Kept", "Lines", ["X-UNKNOWN;X-P=1:kept", "item1.X-ABLabel:Lab"])
            + Self.card("leaver", "Local", "Leaver") + Self.card("zoe", "Zoë", "Ångström", [Self.photoLine(Self.image(1))])).utf8)
            .write(to: cards)
        try sandbox.succeed(["import", cards.path])
        try sandbox.add(["Katie Bell", "--email", "katie@example.com"])
        try sandbox.succeed(["group", "create", "Friends"])
        try sandbox.succeed(["group", "add", "Friends", try id("Katie Bell", in: sandbox)])
    }

    /// On the client: one edited, two added (one with a line the store does not model, an image
    /// and a name beyond ASCII; a group in RFC 6350's form), one removed.
    private func changeTheVdir(_ pair: VdirsyncerPair, syncedFirst vdir: [String: String]) throws {
        let kept = try #require(vdir.first { $0.value.contains("UID:kept") })
        try Data(kept.value.replacingOccurrences(of: "END:VCARD", with: "NOTE:edited on the phone\r\nEND:VCARD").utf8)
            .write(to: pair.vdir.appending(path: kept.key))
        let phone = Self.card("phone-1", "Åsa", "Nyström", ["X-PHONE-ONLY;TYPE=a:still here", Self.photoLine(Self.image(2))])
        try Data(phone.utf8).write(to: pair.vdir.appending(path: "phone-1.vcf"))
        let leaver = try #require(vdir.first { $0.value.contains("UID:leaver") })
        try FileManager.default.removeItem(at: pair.vdir.appending(path: leaver.key))
        let team = "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:team\r\nFN:Team\r\nKIND:group\r\nMEMBER:urn:uuid:phone-1\r\nEND:VCARD\r\n"
        try Data(team.utf8).write(to: pair.vdir.appending(path: "team.vcf"))
    }

    /// In the store, each change committed: one edited, one added, one removed, a member added.
    private func changeTheStore(_ sandbox: CLISandbox, environment: [String: String]) throws {
        try sandbox.succeed(["set", try id("Åsa Nyström", in: sandbox), "note=edited here", "--commit"], environment: environment)
        try sandbox.succeed(["add", "New Local", "--commit"], environment: environment)
        try sandbox.succeed(["rm", try id("Katie Bell", in: sandbox), "--commit"], environment: environment)
        try sandbox.succeed(["group", "add", "Team", try id("New Local", in: sandbox), "--commit"], environment: environment)
    }

    /// The store's changes as the vdir must have them, beside what the phone added and the
    /// card that stayed untouched.
    private func expectTheStoresChanges(in vdir: [String: String]) throws {
        let phone = try #require(vdir["phone-1.vcf"])
        #expect(phone.contains("NOTE:edited here") && phone.contains("X-PHONE-ONLY;TYPE=a:still here"))
        #expect(phone.contains("FN:Åsa Nyström") && image(in: phone) == Self.image(2))
        #expect(vdir.values.contains { $0.contains("FN:New Local") })
        #expect(!vdir.values.contains { $0.contains("Katie Bell") })
        #expect(vdir.values.contains { $0.contains("FN:Zoë Ångström") && image(in: $0) == Self.image(1) })
        let teamCard = try #require(vdir["team.vcf"])
        #expect(teamCard.contains("KIND:group") && !teamCard.contains("X-ADDRESSBOOKSERVER"))
        #expect(teamCard.components(separatedBy: "MEMBER:urn:uuid:").count == 3)
    }

    // MARK: Raw HTTP

    @Test func requestsWithoutTheRightCredentialsAreRefusedWith401() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let added = try sandbox.run(["user", "add", "kim"], environment: Self.testIterations, input: "secret\n")
        try #require(added.status == 0, "\(added)")
        let server = try ServeProcess(sandbox: sandbox, environment: Self.testIterations)
        let connection = RawHTTPConnection(port: server.port)

        let missing = try connection.send("PROPFIND", "/kim/contacts/", headers: ["Depth": "0"])
        let wrong = try connection.send("PROPFIND", "/kim/contacts/", headers: ["Depth": "0", "Authorization": basic("kim", "nope")])
        let unknown = try connection.send("PROPFIND", "/kim/contacts/", headers: ["Depth": "0", "Authorization": basic("ann", "secret")])
        let right = try connection.send("PROPFIND", "/kim/contacts/", headers: ["Depth": "0", "Authorization": basic("kim", "secret")])

        for refused in [missing, wrong, unknown] {
            #expect(refused.status == 401)
            #expect(refused.header("WWW-Authenticate")?.hasPrefix("Basic realm=") == true)
        }
        #expect(right.status == 207)
        #expect(!server.log.contains("secret"))
        #expect(try server.stop().stdout.contains("The address books of kim: \(server.url.absoluteString)kim/contacts/."))
    }

    /// A sandbox with a store and the users kim ("secret") and lee ("other").
    private func sandboxWithTwoUsers() throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        for (user, password) in [("kim", "secret"), ("lee", "other")] {
            let added = try sandbox.run(["user", "add", user], environment: Self.testIterations, input: password + "\n")
            try #require(added.status == 0, "\(added)")
        }
        return sandbox
    }

    /// The statuses of `PROPFIND`s with a wrong password for `user`, up to and with the first
    /// 429 (at most 10).
    private func failUntilThrottled(_ connection: RawHTTPConnection, _ user: String, headers: [String: String]) throws -> [Int] {
        var statuses: [Int] = []
        while statuses.last != 429 && statuses.count < 10 {
            let response = try connection.send(
                "PROPFIND", "/", headers: headers.merging(["Depth": "0", "Authorization": basic(user, "stale")]) { $1 })
            statuses.append(response.status)
        }
        return statuses
    }

    /// A `PROPFIND /` at depth 0 as `user` with `password` and `headers`; its status.
    private func propfind(_ connection: RawHTTPConnection, _ user: String, _ password: String, headers: [String: String]) throws
        -> Int
    {
        try connection.send("PROPFIND", "/", headers: headers.merging(["Depth": "0", "Authorization": basic(user, password)]) { $1 })
            .status
    }

    @Test func behindATrustedProxyOnePhoneWithAStalePasswordLocksOutNoOtherPhone() throws {
        let sandbox = try sandboxWithTwoUsers()
        let server = try ServeProcess(sandbox: sandbox, arguments: ["--trusted-proxy", "127.0.0.1"], environment: Self.testIterations)
        let proxy = RawHTTPConnection(port: server.port)
        let phone1 = ["X-Forwarded-For": "203.0.113.1"]
        let phone2 = ["X-Forwarded-For": "198.51.100.2, 203.0.113.2"]

        let stale = try failUntilThrottled(proxy, "kim", headers: phone1)
        // Each user's first sign-in, before a remembered password skips the budgets.
        let leeOnThePhone = try propfind(proxy, "lee", "other", headers: phone1)
        let kimElsewhere = try propfind(proxy, "kim", "secret", headers: phone2)
        let leeElsewhere = try propfind(proxy, "lee", "other", headers: phone2)
        let brokenForwarded = try (0..<2).map { _ in
            try propfind(proxy, "lee", "other", headers: ["Forwarded": #"for="[2001:db8::1]:4711;proto=https"#])
        }
        let quotedIPv6 = try propfind(proxy, "kim", "secret", headers: ["Forwarded": #"for="[2001:db8::1]:4711";proto=https"#])
        let stopped = try server.stop()

        #expect(stale == [401, 401, 401, 401, 401, 429])
        #expect([kimElsewhere, leeElsewhere, leeOnThePhone] == [207, 207, 207] as [Int])
        #expect(brokenForwarded == [207, 207])
        #expect(quotedIPv6 == 207)
        #expect(stopped.stderr.contains("PROPFIND / 429 "))
        #expect(stopped.stderr.contains("(for 203.0.113.1 via 127.0.0.1)"))
        #expect(stopped.stderr.contains("PROPFIND / 207 ") && stopped.stderr.contains("(for 203.0.113.2 via 127.0.0.1)"))
        #expect(stopped.stderr.contains("(for 2001:db8::1 via 127.0.0.1)"))
        #expect(stopped.stderr.components(separatedBy: "a Forwarded header from the trusted proxy").count == 2)
        #expect(stopped.stdout.contains("Requests from 127.0.0.1 count as the client"))
    }

    @Test func withoutTrustedProxyASpoofedForwardedForGainsNoBudget() throws {
        let sandbox = try sandboxWithTwoUsers()
        let server = try ServeProcess(sandbox: sandbox, environment: Self.testIterations)
        let connection = RawHTTPConnection(port: server.port)

        let stale = try failUntilThrottled(connection, "kim", headers: ["X-Forwarded-For": "203.0.113.1"])
        let spoofed = try propfind(connection, "kim", "secret", headers: ["X-Forwarded-For": "203.0.113.2"])
        let forwarded = try propfind(connection, "kim", "secret", headers: ["Forwarded": "for=203.0.113.3"])
        let otherUser = try propfind(connection, "lee", "other", headers: ["X-Forwarded-For": "203.0.113.1"])
        let stopped = try server.stop()

        #expect(stale.last == 429)
        #expect(spoofed == 429)
        #expect(forwarded == 429)
        #expect(otherUser == 207)
        #expect(!stopped.stderr.contains("203.0.113"))
    }

    @Test func aTrustedProxyThatIsNoAddressIsAUsageError() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()

        let named = try sandbox.run(["serve", "--listen", "127.0.0.1:0", "--trusted-proxy", "proxy.example.com"])
        let help = try sandbox.run(["serve", "--help"])

        #expect(named.status == 64)
        #expect(named.stderr.contains("proxy.example.com"))
        #expect(help.stdout.contains("--trusted-proxy"))
    }

    @Test func theBirthdayCalendarIsServedToTheUserItBelongsTo() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell", "--birthday", "1986-04-12"])
        let added = try sandbox.run(["user", "add", "kim"], environment: Self.testIterations, input: "secret\n")
        try #require(added.status == 0, "\(added)")
        let server = try ServeProcess(sandbox: sandbox, environment: Self.testIterations)
        let connection = RawHTTPConnection(port: server.port)

        let refused = try connection.send("GET", "/kim/birthdays.ics")
        let calendar = try connection.send("GET", "/kim/birthdays.ics", headers: ["Authorization": basic("kim", "secret")])
        #expect(refused.status == 401)
        #expect(calendar.status == 200)
        #expect(calendar.header("Content-Type") == "text/calendar; charset=utf-8")
        #expect(calendar.text == (try sandbox.succeed(["export", "--format", "ics"]).stdout))
        #expect(try server.stop().stdout.contains("The birthday calendar of kim is \(server.url.absoluteString)kim/birthdays.ics."))
    }

    @Test func failedRequestsLeaveTheStoreByteIdentical() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["Katie Bell", "--email", "katie@example.com"])
        let server = try ServeProcess(sandbox: sandbox)
        let connection = RawHTTPConnection(port: server.port)
        let listing = try connection.send("PROPFIND", "/me/contacts/", headers: ["Depth": "1"])
        let href = try #require(listing.text.components(separatedBy: "<d:href>").dropFirst().map { $0.components(separatedBy: "<")[0] }
            .first { $0.hasSuffix(".vcf") })
        let before = try sandbox.snapshot()
        let vcard = ["Content-Type": "text/vcard; charset=utf-8"]

        let staleMatch = try connection.send(
            "PUT", href, headers: vcard.merging(["If-Match": "\"stale\""]) { $1 }, body: Data(Self.card("x", "A", "B").utf8))
        let existing = try connection.send(
            "PUT", href, headers: vcard.merging(["If-None-Match": "*"]) { $1 }, body: Data(Self.card("x", "A", "B").utf8))
        let notACard = try connection.send("PUT", "/me/contacts/broken.vcf", headers: vcard, body: Data("BEGIN:VCARD\r\nFN:x\r\n".utf8))
        let staleDelete = try connection.send("DELETE", href, headers: ["If-Match": "\"stale\""])
        let entity = """
            <?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&x;</d:displayname></d:prop></d:propfind>
            """
        let xxe = try connection.send("PROPFIND", "/me/contacts/", headers: ["Depth": "0"], body: Data(entity.utf8))
        let malformed = try connection.send("REPORT", "/me/contacts/", body: Data("<d:sync-collection xmlns:d=\"DAV:\"><d:sync".utf8))
        let oversized = try connection.sendRaw(
            Array("PUT /me/contacts/big.vcf HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/vcard\r\nContent-Length: 100000000\r\n\r\n".utf8),
            method: "PUT")

        #expect(staleMatch.status == 412)
        #expect(existing.status == 412)
        #expect(notACard.status == 400)
        #expect(staleDelete.status == 412)
        #expect(xxe.status == 400 && !xxe.text.contains("root:"))
        #expect(malformed.status == 400)
        #expect(oversized.status == 413)
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: [
        "/me/contacts/..%2f..%2fstore.json", "/me/contacts/%2e%2e/%2e%2e/store.json", "/me/contacts/../../store.json",
        "/../store.json", "/me/contacts/%00.vcf", "/me/contacts/%c0%ae%c0%ae/store.json", "/me/contacts/..%5c..%5cstore.json",
        "//etc/passwd", "/me/contacts/%2Fetc%2Fpasswd",
    ])
    func pathsOutsideTheCollectionNameNothing(path: String) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["Katie Bell"])
        let server = try ServeProcess(sandbox: sandbox)
        let connection = RawHTTPConnection(port: server.port)
        let before = try sandbox.snapshot()

        let got = try connection.sendRaw(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let put = try connection.sendRaw(
            Array("PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/vcard\r\nContent-Length: 0\r\n\r\n".utf8),
            method: "PUT")

        #expect([400, 403, 404].contains(got.status), "GET \(path): \(got.status)")
        #expect([400, 403, 404, 405].contains(put.status), "PUT \(path): \(put.status)")
        #expect(!got.text.contains("formatVersion") && !got.text.contains("root:"))
        #expect(try sandbox.snapshot() == before)
    }

    // MARK: The command

    @Test func withoutUsersOnlyLoopbackAddressesAreServed() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()

        let everywhere = try sandbox.run(["serve", "--listen", "0.0.0.0:0"])
        let badAddress = try sandbox.run(["serve", "--listen", "localhost"])

        #expect(everywhere.status == 64)
        #expect(everywhere.stderr.contains("contacts user add NAME"))
        #expect(badAddress.status == 64)
    }

    @Test func aStopSignalEndsTheServerAfterItsRequestsAndTheLogNamesNobody() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let server = try ServeProcess(sandbox: sandbox)
        let connection = RawHTTPConnection(port: server.port)

        let created = try connection.send(
            "PUT", "/me/contacts/grace.vcf", headers: ["Content-Type": "text/vcard", "If-None-Match": "*"],
            body: Data(Self.card("grace", "Grace", "Hopper", ["EMAIL:grace@example.com"]).utf8))
        let stopped = try server.stop(signal: SIGINT)

        #expect(created.status == 201)
        #expect(stopped.status == 0)
        #expect(stopped.stdout.contains("Give a client the address http://127.0.0.1:"))
        #expect(stopped.stderr.contains("PUT /me/contacts/grace.vcf 201 "))
        #expect(!stopped.stderr.contains("Grace") && !stopped.stderr.contains("grace@example.com"))
        #expect(try names(sandbox) == ["Grace Hopper"])
    }

    @Test func editsByOtherContactsProcessesAreInTheNextListing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Grace", "--last", "Hopper"])
        let server = try ServeProcess(sandbox: sandbox)
        let connection = RawHTTPConnection(port: server.port)
        let propfind = Data(#"<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>"#.utf8)
        func etags() throws -> [String] {
            let response = try connection.send("PROPFIND", "/me/contacts/", headers: ["Depth": "1"], body: propfind)
            try #require(response.status == 207)
            return String(decoding: response.body, as: UTF8.self).components(separatedBy: "<d:getetag>").dropFirst()
                .map { String($0.prefix { $0 != "<" }) }
        }
        let before = try etags()

        try sandbox.add(["--first", "Ada", "--last", "Lovelace"])
        let added = try etags()
        try sandbox.succeed(["set", try id("Grace Hopper", in: sandbox), "note=Rear admiral"])
        let edited = try etags()
        try sandbox.succeed(["rm", try id("Ada Lovelace", in: sandbox)])
        let removed = try etags()
        let stopped = try server.stop()

        #expect(before.count == 1 && added.count == 2 && edited.count == 2 && removed.count == 1)
        #expect(Set(added).isSuperset(of: before))
        #expect(!edited.contains(before[0]))
        #expect(removed.allSatisfy(edited.contains))
        // The server looked at every file once, at its first listing.
        #expect(!stopped.stderr.contains("looking at every record file"))
    }

    @Test func withCommitEachChangeIsACommitNamingThePersonAndTheClient() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("repo")
        var environment = try git.environment
        environment["CONTACTS_DIR"] = git.store(repository).path(percentEncoded: false)
        let server = try ServeProcess(sandbox: sandbox, arguments: ["--commit"], environment: environment)
        let connection = RawHTTPConnection(port: server.port)

        let created = try connection.send(
            "PUT", "/me/contacts/grace.vcf",
            headers: ["Content-Type": "text/vcard", "If-None-Match": "*", "User-Agent": "TestPhone/2.1 (test)"],
            body: Data(Self.card("grace", "Grace", "Hopper").utf8))
        let removed = try connection.send("DELETE", "/me/contacts/grace.vcf", headers: ["User-Agent": "TestPhone/2.1 (test)"])
        try server.stop()

        #expect(created.status == 201 && removed.status == 204)
        let log = try git.git(["log", "--format=%s%n%b%n--"], in: repository).stdout
        let commits = log.components(separatedBy: "--\n").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        #expect(commits.count == 3)
        #expect(commits[0].hasPrefix("contacts: serve: DELETE with TestPhone/2.1") && commits[0].contains("Grace Hopper"))
        #expect(commits[1].hasPrefix("contacts: serve: PUT with TestPhone/2.1") && commits[1].contains("Grace Hopper"))
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
    }

    @Test func withCommitEachBooksChangesAreCommitsInItsOwnRepository() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let home = try git.makeRepository("home")
        let family = try git.makeRepository("family")
        var environment = try git.environment
        environment["CONTACTS_DIR"] = git.store(home).path(percentEncoded: false)
        environment["CONTACTS_TEST_PASSWORD_ITERATIONS"] = "1000"
        let added = try sandbox.run(
            ["user", "add", "kim", "--book", "contacts", "--book", "family=" + git.store(family).path(percentEncoded: false)],
            environment: environment, input: "pw\n")
        try #require(added.status == 0, "\(added)")
        let server = try ServeProcess(sandbox: sandbox, arguments: ["--commit"], environment: environment)
        let connection = RawHTTPConnection(port: server.port)

        let created = try connection.send(
            "PUT", "/kim/family/grace.vcf",
            headers: [
                "Content-Type": "text/vcard", "If-None-Match": "*", "User-Agent": "TestPhone/2.1 (test)",
                "Authorization": "Basic " + Data("kim:pw".utf8).base64EncodedString(),
            ],
            body: Data(Self.card("grace", "Grace", "Hopper").utf8))
        try server.stop()

        #expect(created.status == 201)
        let familyLog = try git.git(["log", "--format=%s"], in: family).lines
        #expect(familyLog.first == "contacts: serve family: PUT by kim with TestPhone/2.1", "\(familyLog)")
        #expect(try git.git(["log", "--format=%s"], in: home).lines == ["Create the store"])
        for repository in [home, family] {
            #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
        }
    }

    /// A store in a repository, served with `--commit` through a ``HeldGit``.
    private func heldCommitServer() throws -> (sandbox: CLISandbox, git: GitRepositories, repository: URL, held: HeldGit) {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("repo")
        return (sandbox, git, repository, try HeldGit(sandbox: sandbox))
    }

    @Test func withCommitAHungGitKeepsNoClientWaitingAndEveryChangeIsCommittedInOrderBeforeTheServerStops() throws {
        let (sandbox, git, repository, held) = try heldCommitServer()
        var environment = held.environment(try git.environment)
        environment["CONTACTS_DIR"] = git.store(repository).path(percentEncoded: false)
        try held.hold()
        let server = try ServeProcess(sandbox: sandbox, arguments: ["--commit"], environment: environment)
        let connection = RawHTTPConnection(port: server.port)
        func put(_ name: String, _ card: String, _ headers: [String: String] = [:]) throws -> Int {
            var fields = ["Content-Type": "text/vcard", "User-Agent": "TestPhone/2.1 (test)"]
            fields.merge(headers) { _, new in new }
            return try connection.send("PUT", "/me/contacts/" + name, headers: fields, body: Data(card.utf8)).status
        }

        let created = try put("grace.vcf", Self.card("grace", "Grace", "Hopper"), ["If-None-Match": "*"])
        // The first change's commit is held in Git; the next changes are answered meanwhile.
        #expect(held.waitForHeldCommit())
        let edited = try put("grace.vcf", Self.card("grace", "Grace", "Hopper", ["NOTE:Rear admiral"]))
        let added = try put("ada.vcf", Self.card("ada", "Ada", "Lovelace"))
        #expect([created, edited, added] == [Int]([201, 204, 201]))
        #expect(held.isHolding)
        #expect(try git.git(["log", "--format=%s"], in: repository).lines == ["Create the store"])

        // A stop waits for the commits: it says so, Git is let go, and only then does it end.
        server.signal(SIGTERM)
        #expect(server.waitForLog(containing: "waiting for the commits of 3 changes"))
        try held.release()
        let stopped = try server.waitForExit()

        #expect(stopped.status == 0, "\(stopped)")
        let subjects = try git.git(["log", "--format=%s"], in: repository).lines
        #expect(subjects == Array(repeating: "contacts: serve: PUT with TestPhone/2.1", count: 3) + ["Create the store"])
        // Each commit holds its own change: the edit is in the second, not the first.
        let grace = try #require(
            try git.git(["ls-tree", "--name-only", "-r", "HEAD", "book/people"], in: repository).lines.first { $0.contains("grace") })
        #expect(!(try git.git(["show", "HEAD~2:" + grace], in: repository).stdout.contains("Rear admiral")))
        #expect(try git.git(["show", "HEAD~1:" + grace], in: repository).stdout.contains("Rear admiral"))
        #expect(try git.git(["show", "--stat", "--format=%b", "HEAD"], in: repository).stdout.contains("add Ada Lovelace"))
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
    }

    @Test func withCommitACommitGitRefusedIsLoggedAndMadeOnTheNextTry() throws {
        let (sandbox, git, repository, held) = try heldCommitServer()
        var environment = held.environment(try git.environment)
        environment["CONTACTS_DIR"] = git.store(repository).path(percentEncoded: false)
        try held.failNext()
        let server = try ServeProcess(sandbox: sandbox, arguments: ["--commit"], environment: environment)

        let created = try RawHTTPConnection(port: server.port).send(
            "PUT", "/me/contacts/grace.vcf", headers: ["Content-Type": "text/vcard", "User-Agent": "TestPhone/2.1 (test)"],
            body: Data(Self.card("grace", "Grace", "Hopper").utf8))
        #expect(server.waitForLog(containing: "failed, trying again"))
        let stopped = try server.stop()

        #expect(created.status == 201 && stopped.status == 0)
        #expect(stopped.stderr.contains("the commit of \"serve: PUT with TestPhone/2.1\" failed, trying again in 1 s"))
        #expect(try git.git(["log", "--format=%s"], in: repository).lines == ["contacts: serve: PUT with TestPhone/2.1", "Create the store"])
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
    }

    // MARK: Bodies no XML parser should be handed

    @Test func aReadOnlyDevicesBodyThatIsNotUTF8IsAnswered400AndTheServerServesOn() throws {
        let served = try ServedFamily()
        let connection = RawHTTPConnection(port: served.server.port)
        let tablet = basic("tablet", ServedFamily.password)
        // The first listing writes the server's state for the book; nothing after it may.
        let listing = try connection.send("PROPFIND", "/tablet/family/", headers: ["Depth": "1", "Authorization": tablet])
        #expect(listing.status == 207)
        let before = try served.familyFiles()
        let bodies: [[UInt8]] = [
            Array(#"<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:"#.utf8) + [0xFF] + Array("/></d:prop></d:propfind>".utf8),
            Array(#"<d:propfind xmlns:d="DAV:"><d:prop><"#.utf8) + [0xFF] + Array(":x xmlns:".utf8) + [0xFF]
                + Array(#"="DAV:"/></d:prop></d:propfind>"#.utf8),
            Array(#"<d:propfind xmlns:d="DAV:"><d:prop d:"#.utf8) + [0xFF] + Array(#"="1"/></d:propfind>"#.utf8),
        ]

        for body in bodies {
            let refused = try connection.send(
                "PROPFIND", "/tablet/family/", headers: ["Depth": "0", "Authorization": tablet], body: Data(body))
            #expect(refused.status == 400)
        }
        let next = try RawHTTPConnection(port: served.server.port).send(
            "PROPFIND", "/tablet/family/", headers: ["Depth": "1", "Authorization": tablet])

        #expect(next.status == 207)
        #expect(try served.familyFiles() == before)
        let stopped = try served.server.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.components(separatedBy: "PROPFIND /tablet/family/ 400").count == 4)
    }
}
