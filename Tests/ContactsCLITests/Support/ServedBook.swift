import Foundation
import Testing

/// A store under Git, seeded for the end-to-end tests of desktop CardDAV clients and served by
/// `contacts serve --commit` to one user: a card with lines the store does not model and a
/// label (`kept`), one for the client to remove (`leaver`), one with an image and a name beyond
/// ASCII (`zoe`), and Katie Bell in the group Friends.
///
/// ```swift
/// let book = try ServedBook()
/// // sync a client with book.addressBook as ServedBook.user, password ServedBook.password
/// #expect(try book.names() == ["Katie Bell", "Kept Lines", "Local Leaver", "Zoë Ångström"])
/// #expect(try book.serveCommits().allSatisfy { $0.contains(" with Evolution/") })
/// ```
final class ServedBook {
    /// The user the clients sign in as, and its password.
    static let user = "kim"
    static let password = "secret"

    /// A cheap password hash for the debug binary's account.
    private static let testIterations = ["CONTACTS_TEST_PASSWORD_ITERATIONS": "1000"]

    let sandbox: CLISandbox
    let git: GitRepositories
    let server: ServeProcess

    /// Seeds the store, commits it, adds the user and starts the server.
    init() throws {
        sandbox = try CLISandbox()
        git = GitRepositories(sandbox: sandbox)
        try git.git(["init", "--quiet", "--initial-branch=main"], in: sandbox.root)
        try sandbox.initStore()
        let cards = sandbox.temporary.appending(path: "cards.vcf")
        try Data((Self.card("kept", "Kept", "Lines", ["X-UNKNOWN;X-P=1:kept", "item1.X-ABLabel:Lab"])
            + Self.card("leaver", "Local", "Leaver") + Self.card("zoe", "Zoë", "Ångström", [Self.photoLine(Self.image(1))])).utf8)
            .write(to: cards)
        try sandbox.succeed(["import", cards.path(percentEncoded: false)])
        try sandbox.add(["Katie Bell", "--email", "katie@example.com"])
        try sandbox.succeed(["group", "create", "Friends"])
        try sandbox.succeed(["group", "add", "Friends", try Self.id("Katie Bell", in: sandbox)])
        let added = try sandbox.run(["user", "add", Self.user], environment: Self.testIterations, input: Self.password + "\n")
        try #require(added.status == 0, "\(added)")
        try git.git(["add", "book"], in: sandbox.root)
        try git.git(["commit", "--quiet", "-m", "Seed the store"], in: sandbox.root)
        server = try ServeProcess(
            sandbox: sandbox, arguments: ["--commit"], environment: try git.environment.merging(Self.testIterations) { $1 })
    }

    /// The user's address book.
    var addressBook: URL { server.url.appending(path: "\(Self.user)/contacts/") }

    /// The people's names, sorted.
    func names() throws -> [String] {
        try sandbox.succeed(["list"]).lines.map { String($0.split(separator: "\t")[1]) }.sorted()
    }

    /// The record ID of the person named `name`.
    func id(_ name: String) throws -> String {
        try Self.id(name, in: sandbox)
    }

    /// A person's vCard `UID`, as `contacts export` writes it.
    func uid(_ name: String) throws -> String {
        let cards = CardLines.cards(try sandbox.succeed(["export", try id(name)]).stdout)
        return try #require(cards.first.flatMap { CardLines.first("UID", in: $0) }, "no UID for \(name)")
    }

    /// The lines of a person's card the store keeps without modelling them.
    func unmodelledLines(_ name: String) throws -> [String] {
        try sandbox.json(try id(name))["keptLines"] as? [String] ?? []
    }

    /// The images the store keeps, as bytes.
    func images() throws -> Set<Data> {
        Set(try sandbox.storeFiles(in: "people").filter { $0.hasSuffix(".png") }
            .map { try Data(contentsOf: sandbox.storeFile("people/\($0)")) })
    }

    /// The commits `contacts serve --commit` made, newest first; with `count`, once there are
    /// that many (or after 30 seconds), since the server commits after it answers.
    func serveCommits(count: Int? = nil) throws -> [String] {
        try Self.serveCommits(count: count) {
            try git.git(["log", "--format=%s"], in: sandbox.root).lines.filter { $0.hasPrefix("contacts: serve: ") }
        }
    }

    /// Reads `commits` until it holds `count` of them, for at most 30 seconds.
    static func serveCommits(count: Int?, _ commits: () throws -> [String]) throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(30)
        var read = try commits()
        while let count, read.count < count, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            read = try commits()
        }
        return read
    }

    /// Whether the store has changes Git does not have.
    func hasUncommittedChanges() throws -> Bool {
        !(try git.git(["status", "--porcelain", "--", "book"], in: sandbox.root).stdout.isEmpty)
    }

    /// A request the server answered, as its log names it (`PUT /kim/contacts/a.vcf 201 4ms`).
    struct Request: Equatable, CustomStringConvertible {
        var method: String
        var path: String
        var status: Int

        var description: String { "\(method) \(path) \(status)" }
    }

    /// The methods with which a client sends or fetches a card, or removes one: `GET`, `PUT`,
    /// `DELETE`, and `REPORT` (a multiget, a query or a sync-collection, which may carry
    /// cards). `PROPFIND` and `OPTIONS` carry none: a card's `address-data` is only ever asked
    /// for in a `REPORT`.
    static let cardMethods: Set<String> = ["GET", "PUT", "DELETE", "REPORT"]

    /// The statuses with which the server refuses a change as a conflict: 409, and 412 for a
    /// card that changed since the client read it (`If-Match`) or that exists already
    /// (`If-None-Match: *`).
    static let conflictStatuses: Set<Int> = [409, 412]

    /// The requests the server answered so far, in the order it logged them; all of them once
    /// it stopped.
    func requests() -> [Request] {
        server.log.split(separator: "\n").compactMap { line in
            // A request's line: time, method, path, status, milliseconds, and maybe a note.
            let words = line.split(separator: " ")
            guard words.count >= 5, words[4].hasSuffix("ms"), let status = Int(words[3]) else { return nil }
            return Request(method: String(words[1]), path: String(words[2]), status: status)
        }
    }

    /// A last sync with nothing changed: `sync` runs the client's sync and says whether the
    /// client's side stayed as it was; the store must stay byte-identical, with no new commit
    /// and nothing left uncommitted, and the server must stop cleanly.
    func expectALastSyncChangesNothing(commits clientCommits: [String], sync: () throws -> Bool) throws {
        let storeFiles = try sandbox.snapshot()
        #expect(try sync(), "the client's side changed")
        #expect(try sandbox.snapshot() == storeFiles)
        #expect(try serveCommits() == clientCommits)
        #expect(try !hasUncommittedChanges())
        #expect(try server.stop().status == 0)
    }

    /// In the store, each change committed: one edited, one added, one removed, the one added
    /// put in Friends.
    func changeTheStore(editing edited: String) throws {
        let environment = try git.environment
        try sandbox.succeed(["set", try id(edited), "note=edited here", "--commit"], environment: environment)
        try sandbox.succeed(["add", "New Local", "--commit"], environment: environment)
        try sandbox.succeed(["rm", try id("Katie Bell"), "--commit"], environment: environment)
        try sandbox.succeed(["group", "add", "Friends", try id("New Local"), "--commit"], environment: environment)
    }

    /// A vCard 3.0 card with CR LF line ends.
    static func card(_ uid: String, _ first: String, _ last: String, _ extra: [String] = []) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "FN:\(first) \(last)", "N:\(last);\(first);;;"] + extra + ["END:VCARD"])
            .joined(separator: "\r\n") + "\r\n"
    }

    /// An image the store keeps as a `.png`: PNG's signature, then 200 bytes counting up from
    /// `seed`, long enough for a folded `PHOTO` line.
    static func image(_ seed: UInt8) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<200).map { seed &+ UInt8($0) })
    }

    /// A vCard 3.0 `PHOTO` line holding `image`.
    static func photoLine(_ image: Data) -> String {
        "PHOTO;ENCODING=b;TYPE=PNG:" + image.base64EncodedString()
    }

    /// The image of a card's `PHOTO`, in 3.0's form or 4.0's `data:` URI.
    static func image(in card: String) -> Data? {
        guard let value = CardLines.first("PHOTO", in: CardLines.lines(card)), !value.isEmpty else { return nil }
        return Data(base64Encoded: value.components(separatedBy: "base64,").last ?? value)
    }

    private static func id(_ name: String, in sandbox: CLISandbox) throws -> String {
        let line = try #require(try sandbox.succeed(["list"]).lines.first { $0.split(separator: "\t")[1] == name }, "no \(name)")
        return String(line.split(separator: "\t")[0])
    }
}
