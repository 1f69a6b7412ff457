import DAVTestSupport
import Foundation
import Testing

/// A vCard of one person.
private func card(_ first: String, _ last: String) -> String {
    "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\(last);\(first);;;\r\nFN:\(first) \(last)\r\nEND:VCARD\r\n"
}

extension CLISandbox {
    /// Writes `text` under the sandbox's folder, making folders as needed, and returns the path.
    fileprivate func write(_ relative: String, _ text: String) throws -> String {
        let url = root.appending(path: relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path(percentEncoded: false)
    }

    /// The names of the people in the store, sorted.
    fileprivate func names() throws -> [String] {
        let text = try succeed(["list", "--json"]).stdout
        let people = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        return people.compactMap { $0["compositeName"] as? String }.sorted()
    }
}

@Suite struct ImportFormatsCommandTests {
    @Test func aFolderImportsEveryVCardUnderItLeavingOutDotFolders() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        _ = try sandbox.write("vdir/default/a.vcf", card("Ada", "Lovelace"))
        _ = try sandbox.write("vdir/default/sub/b.VCARD", card("Alan", "Turing"))
        _ = try sandbox.write("vdir/default/.Radicale.cache/item/c.vcf", card("Not", "Me"))
        _ = try sandbox.write("vdir/default/readme.txt", "not a card")
        let result = try sandbox.run(["import", "vdir/default/"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.names() == ["Ada Lovelace", "Alan Turing"])
    }

    @Test func aFolderWithoutVCardsIsMissingInput() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        _ = try sandbox.write("empty/readme.txt", "nothing here")
        let result = try sandbox.run(["import", "empty"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("empty is a folder without .vcf or .vcard files"))
    }

    @Test func csvLdifAndVCardInputsGoInOneSaveWithWarningsNamingTheirOwnLines() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let csv = try sandbox.write("google.csv", "First Name,Last Name,E-mail 1 - Value\nKim,Lee,kim@x.example,extra\n")
        let vcf = try sandbox.write("one.vcf", card("Bo", "Ray"))
        let result = try sandbox.run(["import", csv, vcf])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("google.csv:2: the row has 1 more cells than the header"), "\(result)")
        #expect(try sandbox.names() == ["Bo Ray", "Kim Lee"])
    }

    @Test func theFormatIsFoundFromTheContentWhateverTheName() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let file = try sandbox.write("contacts.txt", "Name;E-mail;Phone\nKatie Bell;k@x.example;+1 555 0100\n")
        #expect(try sandbox.run(["import", file]).status == 0)
        #expect(try sandbox.names() == ["Katie Bell"])
        let stdin = try sandbox.run(["import", "-"], input: "Name,Email\nJohn Appleseed,j@x.example\n")
        #expect(stdin.status == 0, "\(stdin)")
        #expect(try sandbox.names() == ["John Appleseed", "Katie Bell"])
    }

    @Test func formatForcesTheReader() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let file = try sandbox.write("sheet", "Name\nKatie Bell\n")
        let vcard = try sandbox.run(["import", "--format", "vcard", file])
        #expect(vcard.status == 65)
        let csv = try sandbox.run(["import", "--format", "csv", file])
        #expect(csv.status == 0, "\(csv)")
        #expect(try sandbox.run(["import", "--format", "xls", file]).status == 64)
    }

    @Test func aStrictImportOfAFlawedSheetIsExit65AndLeavesTheStoreByteIdentical() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let file = try sandbox.write("flawed.csv", "Name,Email\nAda Lovelace,a@x.example\n\"Open,b@x.example\n")
        let result = try sandbox.run(["import", "--strict", file])
        #expect(result.status == 65)
        #expect(result.stderr.contains("flawed.csv:3: "), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test func keptColumnsShowInShowJsonAndComeBackOnExport() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let file = try sandbox.write("g.csv", "Name,Email,Shoe size\nKatie Bell,k@x.example,38\n")
        _ = try sandbox.succeed(["import", file])
        #expect(try sandbox.succeed(["show", "1", "--json"]).stdout.contains("Shoe size"))
        #expect(try sandbox.succeed(["export"]).stdout.contains(#"X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Shoe size":38"#))
    }

    @Test func aListsKeptFieldsShowInGroupListJson() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let file = try sandbox.write(
            "lists.ldif",
            "dn: cn=Book Club\nobjectclass: groupOfNames\ncn: Book Club\ndescription: Monthly readers\n"
                + "member: cn=Katie Bell\n\ndn: cn=Katie Bell\ncn: Katie Bell\nmail: k@x.example\n")
        _ = try sandbox.succeed(["import", file])
        let json = try sandbox.succeed(["group", "list", "--json"]).stdout
        #expect(json.contains(#"X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME=\"description\":Monthly readers"#), "\(json)")
    }

    @Test(arguments: ["csv", "outlook-csv", "ldif"])
    func exportAsCSVThenImportIntoAFreshStoreGivesTheSamePeople(format: String) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        _ = try sandbox.add([
            "--first", "Katie", "--last", "Bell", "--org", "Acme", "--phone", "mobile:+1 555 0100",
            "--email", "work:katie@acme.example", "--birthday", "1980-04-12", "--group", "Friends", "--create-group",
        ])
        _ = try sandbox.add(["--first", "Chloé", "--last", "Dubois", "--email", "home:chloe@example.fr"])
        let text = try sandbox.succeed(["export", "--format", format]).stdout
        let file = try sandbox.write("export-\(format).csv", text)
        let copy = try CLISandbox()
        try copy.initStore()
        let result = try copy.run(["import", file])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(try copy.names() == sandbox.names())
        let katie = try copy.succeed(["show", "Katie", "--json"]).stdout
        for expected in ["+1 555 0100", "katie@acme.example", "1980-04-12", "Friends", "Acme"] {
            #expect(katie.contains(expected), "\(expected) missing from \(katie)")
        }
    }

    @Test func ldifAbookAndMuttFilesImportTogetherWithTheirGroups() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let fixtures = TestFixtures.folder.appending(path: "exports")
        let files = ["thunderbird-lists.ldif", "abook-0.6.addressbook", "neomutt.aliases"]
            .map { fixtures.appending(path: $0).path(percentEncoded: false) }
        let result = try sandbox.run(["import", "--json"] + files)
        #expect(result.status == 0, "\(result)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(((report["added"] as? [Int])?.count ?? 0) >= 3)
        #expect(((report["groupsCreated"] as? [String])?.count ?? 0) >= 2)
        let groups = try sandbox.succeed(["group", "list"]).stdout
        #expect(!groups.isEmpty)
    }
}
