import DAVTestSupport
import Foundation
import TestTags
import Testing

/// The vCard files the library's tests read.
private let fixtureFolder = TestFixtures.folder.appending(path: "vcards", directoryHint: .isDirectory)

/// The `.vcf` files of the folders that hold well-formed cards. The other folders are the
/// corpus of real exports, broken ones included, that `contacts-bench --fidelity` measures.
private let fixtureFiles: [String] = {
    let base = fixtureFolder.path(percentEncoded: false)
    let folders = ["handmade", "khard", "vcard4android", "vcardimport"]
    guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
    return enumerator.compactMap { $0 as? String }
        .filter { path in path.hasSuffix(".vcf") && folders.contains { path.hasPrefix($0 + "/") } }.sorted()
}()

/// A vCard 3.0 card with CRLF line ends.
private func card(_ first: String, _ last: String, uid: String? = nil, _ extra: String...) -> String {
    (["BEGIN:VCARD", "VERSION:3.0", "N:\(last);\(first);;;", "FN:\(first) \(last)"]
        + (uid.map { ["UID:\($0)"] } ?? []) + extra + ["END:VCARD"])
        .map { $0 + "\r\n" }.joined()
}

extension CLISandbox {
    /// Writes `text` to a file in the sandbox's folder (the folder commands run in) and returns
    /// its path.
    fileprivate func file(_ name: String, _ text: String) throws -> String {
        let url = root.appending(path: name)
        try Data(text.utf8).write(to: url)
        return url.path(percentEncoded: false)
    }

    /// The JSON object a command prints.
    fileprivate func jsonObject(_ arguments: [String], input: String? = nil) throws -> [String: Any] {
        let result = try run(arguments, input: input)
        try #require(result.status == 0, "contacts \(arguments.joined(separator: " ")) failed: \(result)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// `contacts list --json` without the values that differ between stores.
    fileprivate func comparablePeople(environment: [String: String] = [:]) throws -> [NSDictionary] {
        let text = try succeed(["list", "--json"], environment: environment).stdout
        let people = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        return people.map { person in
            NSDictionary(dictionary: person.filter { !["id", "created", "modified", "ref"].contains($0.key) })
        }
    }
}

@Suite struct ImportExportCommandTests {
    // MARK: Import

    @Test(arguments: fixtureFiles.filter { $0 != "khard/unparsable.vcf" && $0 != "recovery/not-a-vcard.vcf" })
    func everyWellFormedFixtureImports(file: String) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let path = fixtureFolder.appending(path: file).path(percentEncoded: false)
        let result = try sandbox.run(["import", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("imported "))
        #expect(!(try sandbox.storeFiles(in: "people")).isEmpty)
    }

    @Test func anUnparsableFileIsExit65NamingTheFileAndLineAndWritesNothingWithStrict() throws {
        #expect(fixtureFiles.count >= 20)
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let good = fixtureFolder.appending(path: "khard/minimal.vcf").path(percentEncoded: false)
        let bad = fixtureFolder.appending(path: "khard/unparsable.vcf").path(percentEncoded: false)
        for arguments in [[bad], [good, bad], ["-"]] {
            let result = try sandbox.run(
                ["import", "--strict"] + arguments, input: try String(contentsOfFile: bad, encoding: .utf8))
            #expect(result.status == 65)
            #expect(result.stdout.isEmpty)
            let name = arguments == ["-"] ? "(standard input)" : "unparsable.vcf"
            #expect(result.stderr.contains("\(name):1: "), "\(result)")
            #expect(try sandbox.snapshot() == before)
        }
    }

    @Test func aMalformedCardAmongSeveralFilesIsReportedWithItsOwnFileAndLineWithStrict() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let first = try sandbox.file("first.vcf", card("Kim", "Lee") + card("Ada", "Zed"))
        _ = try sandbox.file("second.vcf", card("Bo", "Ray", "BROKEN LINE"))
        let result = try sandbox.run(["import", "--strict", first, "second.vcf"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("second.vcf:5: "), "\(result)")
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
    }

    @Test func aDashReadsStandardInput() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let result = try sandbox.run(["import", "-"], input: card("Kim", "Lee", "TEL;TYPE=CELL:+1 555 0100"))
        #expect(result.status == 0)
        #expect(result.stdout == "imported 1 person (1 added, 0 updated, 0 skipped)\n")
        #expect(try sandbox.succeed(["list"]).lines == ["1\tKim Lee\t+1 555 0100\t"])
    }

    @Test func severalFilesAndStandardInputAreImportedTogether() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let first = try sandbox.file("first.vcf", card("Kim", "Lee", "CATEGORIES:Friends"))
        let second = try sandbox.file("second.vcf", card("Ada", "Zed", "CATEGORIES:Friends,Work"))
        let result = try sandbox.run(["import", first, "-", second], input: card("Bo", "Ray"))
        #expect(result.status == 0)
        #expect(result.stdout == "imported 3 people (3 added, 0 updated, 0 skipped); 2 groups created\n")
        #expect(try sandbox.succeed(["list", "--group", "Friends"]).lines.count == 2)
    }

    @Test func reimportingCardsWithUIDsUpdatesThePeopleInsteadOfAddingThemAgain() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let path = try sandbox.file(
            "people.vcf", card("Kim", "Lee", uid: "uid-kim") + card("Ada", "Zed", uid: "uid-ada"))
        #expect(try sandbox.succeed(["import", path]).stdout == "imported 2 people (2 added, 0 updated, 0 skipped)\n")
        for policy in ["merge", "new"] {
            let again = try sandbox.succeed(["import", path, "--on-match", policy])
            #expect(again.stdout == "imported 2 people (0 added, 2 updated, 0 skipped)\n")
        }
        #expect(try sandbox.succeed(["list"]).lines.count == 2)
    }

    @Test func onMatchMergeFillsInTheMatchingPerson() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee", "--phone", "mobile:111"])
        let path = try sandbox.file("kim.vcf", card("Kim", "Lee", "EMAIL;TYPE=WORK:kim@example.com"))
        let report = try sandbox.jsonObject(["import", path, "--on-match", "merge", "--json"])
        #expect(report["updated"] as? [Int] == Int(id).map { [$0] })
        #expect(report["added"] as? [Int] == [])
        let person = try sandbox.json(id)
        #expect((person["phones"] as? [[String: Any]])?.count == 1)
        #expect((person["emails"] as? [[String: Any]])?.first?["value"] as? String == "kim@example.com")
        #expect(try sandbox.succeed(["list"]).lines.count == 1)
    }

    @Test func onMatchNewAddsTheCardBesideTheMatchingPerson() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let path = try sandbox.file("kim.vcf", card("Kim", "Lee", "EMAIL:kim@example.com"))
        let report = try sandbox.jsonObject(["import", path, "--on-match", "new", "--json"])
        #expect((report["added"] as? [Int])?.count == 1)
        #expect(report["updated"] as? [Int] == [])
        #expect(try sandbox.succeed(["list"]).lines.count == 2)
        #expect(try sandbox.json(id)["emails"] == nil)
    }

    @Test func onMatchSkipLeavesTheMatchingPersonAlone() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let before = try sandbox.snapshot()
        let path = try sandbox.file("kim.vcf", card("Kim", "Lee", "EMAIL:kim@example.com"))
        let report = try sandbox.jsonObject(["import", path, "--on-match", "skip", "--json"])
        #expect(report["skipped"] as? [Int] == Int(id).map { [$0] })
        #expect(report["added"] as? [Int] == [])
        #expect(try sandbox.snapshot() == before)
    }

    @Test func skipInvalidImportsTheGoodCardsAndListsTheBadOnesOnStandardError() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let path = try sandbox.file("mixed.vcf", card("Kim", "Lee") + card("Bo", "Ray", "BROKEN LINE") + card("Ada", "Zed"))
        let result = try sandbox.run(["import", "mixed.vcf", "--skip-invalid", "--strict"])
        #expect(result.status == 0)
        #expect(result.stdout == "imported 2 people (2 added, 0 updated, 0 skipped); 1 malformed card left out\n")
        #expect(result.stderr.hasPrefix("mixed.vcf:10: "), "\(result)")
        #expect(try sandbox.succeed(["list"]).lines.count == 2)

        let report = try sandbox.jsonObject(
            ["import", "-", path, "--skip-invalid", "--strict", "--on-match", "new", "--json"],
            input: card("Bo", "Ray", "BROKEN"))
        let invalid = try #require(report["invalid"] as? [[String: Any]])
        #expect(invalid.map { $0["file"] as? String } == ["(standard input)", path])
        #expect(invalid.map { $0["line"] as? Int } == [5, 10])
        #expect((report["added"] as? [Int])?.count == 2)
    }

    @Test func anOversizedFieldIsLeftOutWithAWarningNamingItsLine() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let path = try sandbox.file("long.vcf", card("Kim", "Lee", "NOTE:" + String(repeating: "é", count: 40_000)))
        let result = try sandbox.run(["import", "long.vcf"])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("long.vcf:5: "), "\(result)")
        let report = try sandbox.jsonObject(["import", path, "--on-match", "new", "--json"])
        let warnings = try #require(report["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["line"] as? Int } == [5])
        #expect((report["added"] as? [Int])?.count == 1)
    }

    @Test func skipInvalidWithNothingImportableIsExit65() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let path = try sandbox.file("bad.vcf", card("Bo", "Ray", "BROKEN LINE"))
        let result = try sandbox.run(["import", path, "--skip-invalid", "--strict"])
        #expect(result.status == 65)
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
    }

    @Test func aMissingInputFileIsExit66AndImportsNothing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let good = try sandbox.file("good.vcf", card("Kim", "Lee"))
        let emptyFolder = sandbox.root.appending(path: "no-cards")
        try FileManager.default.createDirectory(at: emptyFolder, withIntermediateDirectories: true)
        for arguments in [["missing.vcf"], [good, "missing.vcf"], [emptyFolder.path(percentEncoded: false)]] {
            let result = try sandbox.run(["import"] + arguments)
            #expect(result.status == 66)
            #expect(try sandbox.storeFiles(in: "people").isEmpty)
        }
    }

    @Test(arguments: [
        ["import"], ["import", "x.vcf", "--on-match", "sometimes"], ["import", "-", "-"],
        ["import", "x.vcf", "--on-match", "ask"],
    ])
    func wrongImportCommandLinesAreUsageErrorsBeforeAnythingIsRead(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        _ = try sandbox.file("x.vcf", card("Kim", "Lee"))
        let result = try sandbox.run(arguments, input: card("Ada", "Zed"))
        #expect(result.status == 64)
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
    }

    // MARK: Export

    /// A store with three people, two of them in Friends.
    private func sandboxWithPeople() throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim", "--last", "Lee", "--phone", "mobile:+1 555 0100", "--group", "Friends", "--create-group"])
        try sandbox.add(["--first", "Ada", "--last", "Zed", "--email", "work:ada@example.com", "--birthday", "1990-04-12"])
        try sandbox.add([
            "--first", "John", "--last", "Appleseed", "--address", "home:1 Main St;Springfield;IL;62701;USA",
            "--note", "Met at the fair", "--group", "Friends",
        ])
        return sandbox
    }

    /// Checks that `text` is `count` vCards of `version`, every line ended by CRLF.
    private func expectCards(_ text: String, count: Int, version: String) {
        let bytes = Array(text.utf8)
        #expect(!bytes.isEmpty)
        #expect(bytes.indices.allSatisfy { bytes[$0] != 10 || ($0 > 0 && bytes[$0 - 1] == 13) }, "a line ends without CRLF")
        #expect(text.hasSuffix("END:VCARD\r\n"))
        let lines = text.components(separatedBy: "\r\n")
        let begins = lines.indices.filter { lines[$0] == "BEGIN:VCARD" }
        #expect(begins.count == count)
        #expect(begins.allSatisfy { $0 + 1 < lines.count && lines[$0 + 1] == "VERSION:\(version)" })
        #expect(lines.filter { $0 == "END:VCARD" }.count == count)
    }

    @Test func exportWritesEveryoneAsVCard3ByDefault() throws {
        let sandbox = try sandboxWithPeople()
        let result = try sandbox.succeed(["export"])
        expectCards(result.stdout, count: 3, version: "3.0")
        let names = result.stdout.components(separatedBy: "\r\n").filter { $0.hasPrefix("FN:") }
        #expect(names == ["FN:John Appleseed", "FN:Kim Lee", "FN:Ada Zed"])
        #expect(result.stdout.contains("CATEGORIES:Friends\r\n"))
    }

    @Test func exportWritesVCard4WhenAsked() throws {
        let sandbox = try sandboxWithPeople()
        let result = try sandbox.succeed(["export", "--vcard-version", "4.0"])
        expectCards(result.stdout, count: 3, version: "4.0")
    }

    @Test func exportOfIDsWritesThosePeopleInTheGivenOrder() throws {
        let sandbox = try sandboxWithPeople()
        let text = try sandbox.succeed(["export", "2", "1"]).stdout
        expectCards(text, count: 2, version: "3.0")
        #expect(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("FN:") } == ["FN:Ada Zed", "FN:Kim Lee"])
    }

    @Test func exportOfAGroupWritesItsMembers() throws {
        let sandbox = try sandboxWithPeople()
        let text = try sandbox.succeed(["export", "--group", "Friends"]).stdout
        expectCards(text, count: 2, version: "3.0")
        #expect(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("FN:") } == ["FN:John Appleseed", "FN:Kim Lee"])
    }

    @Test func exportOfEveryoneWritesAGroupWithoutMembersAsAGroupCardThatImportsBack() throws {
        let sandbox = try sandboxWithPeople()
        try sandbox.succeed(["group", "create", "Book club"])
        let text = try sandbox.succeed(["export"]).stdout
        expectCards(text, count: 4, version: "3.0")
        #expect(text.contains("\r\nFN:Book club\r\nX-ADDRESSBOOKSERVER-KIND:group\r\n"))
        #expect(!text.contains("FN:Friends"))
        let path = try sandbox.file("all.vcf", text)
        let environment = ["CONTACTS_DIR": sandbox.root.appending(path: "other").path(percentEncoded: false)]
        try sandbox.succeed(["init"], environment: environment)
        try sandbox.succeed(["import", path], environment: environment)
        let groups = try sandbox.succeed(["group", "list"], environment: environment).stdout
        #expect(groups.contains("Book club"))
        #expect(groups.contains("Friends"))
    }

    @Test func exportToAFileWritesWhatStandardOutputWouldAndReplacesTheFile() throws {
        let sandbox = try sandboxWithPeople()
        let expected = try sandbox.succeed(["export", "--vcard-version", "4.0"]).stdout
        let path = try sandbox.file("out.vcf", "old contents that are longer than nothing")
        let result = try sandbox.succeed(["export", "--vcard-version", "4.0", "-o", path])
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
        try sandbox.succeed(["export", "1", "--output", "single.vcf"])
        expectCards(try String(contentsOfFile: sandbox.root.appending(path: "single.vcf").path(percentEncoded: false), encoding: .utf8), count: 1, version: "3.0")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path(percentEncoded: false))
            .filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func exportKeepsTheFilesPermissionsAndNamesAFolderThatIsNotThere() throws {
        let sandbox = try sandboxWithPeople()
        let path = try sandbox.file("shared.vcf", "old")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try sandbox.succeed(["export", "-o", path])
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        let missing = sandbox.root.appending(path: "no-such-folder/out.vcf").path(percentEncoded: false)
        let refused = try sandbox.run(["export", "-o", missing])
        #expect(refused.status == 1 && refused.stderr.contains("cannot write \(missing)"), "\(refused)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("BEGIN:VCARD"))
    }

    @Test func exportThenImportIntoANewStoreGivesTheSamePeople() throws {
        let sandbox = try sandboxWithPeople()
        try sandbox.add(["--org", "Big Co", "--kind", "organization", "--url", "https://big.example"])
        for file in ["vcard4android/allfields-vcard3.vcf", "khard/photov3.vcf", "vcardimport/amelie-alpha-3x.vcf"] {
            try sandbox.succeed(["import", fixtureFolder.appending(path: file).path(percentEncoded: false)])
        }
        for version in ["3.0", "4.0"] {
            let path = sandbox.root.appending(path: "all-\(version).vcf").path(percentEncoded: false)
            try sandbox.succeed(["export", "--vcard-version", version, "-o", path])
            let other = sandbox.root.appending(path: "other-\(version)").path(percentEncoded: false)
            let environment = ["CONTACTS_DIR": other]
            try sandbox.succeed(["init"], environment: environment)
            try sandbox.succeed(["import", path], environment: environment)
            let original = try sandbox.comparablePeople()
            let copy = try sandbox.comparablePeople(environment: environment)
            #expect(original.count == 9)
            #expect(copy == original)
        }
    }

    @Test(.tags(.slow), .slowTestsEnabled, arguments: [
        (["export", "--vcard-version", "2.1"], Int32(64)), (["export", "--vcard-version", "4"], Int32(64)),
        (["export", "abc"], Int32(64)), (["export", "1", "--group", "Friends"], Int32(64)),
        (["export", "99"], Int32(66)), (["export", "1", "99"], Int32(66)), (["export", "--group", "Enemies"], Int32(66)),
    ])
    func wrongExportsFailWithTheirExitStatus(arguments: [String], status: Int32) throws {
        let sandbox = try sandboxWithPeople()
        let result = try sandbox.run(arguments)
        #expect(result.status == status)
        #expect(result.stdout.isEmpty)
    }
}

/// `import --on-match ask` in a real terminal, driven through tmux.
@Suite(.serialized, .enabled(if: tmuxAvailable))
struct ImportAskTerminalTests {
    @Test func askMergesSkipsOrAddsAsAnsweredForEachMatchingCard() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim", "--last", "Lee"])
        try sandbox.add(["--first", "Ada", "--last", "Zed"])
        let path = try sandbox.file(
            "cards.vcf",
            card("Kim", "Lee", "EMAIL:kim@example.com") + card("Bo", "Ray") + card("Ada", "Zed", "EMAIL:ada@example.com"))
        let session = try TmuxSession(sandbox: sandbox, arguments: ["import", path, "--on-match", "ask"])
        try session.waitForScreen(containing: "the same name as person 1, Kim Lee.")
        try session.type("x")
        try session.press("Enter")
        try session.waitForScreen(containing: "Answer m, n or s.")
        try session.type("m")
        try session.press("Enter")
        try session.waitForScreen(containing: "the same name as person 2, Ada Zed.")
        try session.type("s")
        try session.press("Enter")
        let outcome = try session.waitForExit()
        #expect(outcome.status == 0)
        #expect(outcome.output == "imported 2 people (1 added, 1 updated, 1 skipped)\n")
        #expect((try sandbox.json("1")["emails"] as? [[String: Any]])?.count == 1)
        #expect(try sandbox.json("2")["emails"] == nil)
    }

    @Test func endingTheInputWhileAskingImportsNothing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let before = try sandbox.snapshot()
        let path = try sandbox.file("cards.vcf", card("Bo", "Ray") + card("Kim", "Lee", "EMAIL:kim@example.com"))
        let session = try TmuxSession(sandbox: sandbox, arguments: ["import", path, "--on-match", "ask"])
        try session.waitForScreen(containing: "[m]erge into it, [n]ew contact, [s]kip?")
        try session.press("C-d")
        let outcome = try session.waitForExit()
        #expect(outcome.status == 1)
        #expect(outcome.output.isEmpty)
        #expect(try sandbox.snapshot() == before)
    }

    // MARK: Recovery

    @Test func aBrokenFileImportsWithAWarningPerRecoveryAndIsExit65WithStrict() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let broken = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Kim;;;\r\nFN:Kim Lee\r\nX-messaging/twitter-All:@kim\r\n"
            + card("Ada", "Zed")
        let path = try sandbox.file("broken.vcf", broken)
        let before = try sandbox.snapshot()
        let strict = try sandbox.run(["import", "--strict", path])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("broken.vcf:5: "), "\(strict)")
        #expect(try sandbox.snapshot() == before)

        let result = try sandbox.run(["import", "broken.vcf"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("imported 2 people"))
        #expect(result.stderr.contains("broken.vcf:1: "), "\(result)")
        #expect(result.stderr.contains("broken.vcf:5: "), "\(result)")

        let report = try sandbox.jsonObject(["import", path, "-", "--on-match", "new", "--json"], input: broken)
        let warnings = try #require(report["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["line"] as? Int } == [1, 5, 1, 5])
        #expect(warnings.map { $0["file"] as? String } == [path, path, "(standard input)", "(standard input)"])
        #expect((report["added"] as? [Int])?.count == 4)
    }

    @Test func aFileWithoutAnyCardIsExit65() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let path = try sandbox.file("notes.txt", "just some notes\r\nnothing else\r\n")
        let result = try sandbox.run(["import", path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("notes.txt:1: "), "\(result)")
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
    }

    @Test func anInputEndingInsideACardIsEndedThereWhenJoinedWithOthers() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let first = try sandbox.file(
            "first.vcf", card("Kim", "Lee") + "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Open;Ann;;;\r\nFN:Ann Open\r\n")
        let second = try sandbox.file("second.vcf", "stray text\r\n" + card("Ada", "Zed"))
        let report = try sandbox.jsonObject(["import", first, second, "--json"])
        let warnings = try #require(report["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["file"] as? String } == [first, second])
        #expect(warnings.map { $0["line"] as? Int } == [6, 1])
        #expect((report["added"] as? [Int])?.count == 3)
        #expect(try !sandbox.succeed(["export"]).stdout.contains("stray text"))
    }

    @Test func aUTF16FileAmongSeveralIsReadWithAWarningNamingIt() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let first = try sandbox.file("first.vcf", card("Kim", "Lee"))
        let wide = sandbox.root.appending(path: "wide.vcf")
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in card("Zoë", "Åberg").utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(bytes).write(to: wide)
        let report = try sandbox.jsonObject(["import", first, wide.path(percentEncoded: false), "--json"])
        let warnings = try #require(report["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["file"] as? String } == [wide.path(percentEncoded: false)])
        #expect(warnings.map { $0["line"] as? Int } == [1])
        #expect((report["added"] as? [Int])?.count == 2)
        #expect(try sandbox.succeed(["search", "Åberg"]).stdout.contains("Zoë Åberg"))
    }
}
