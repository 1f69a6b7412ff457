import Foundation
import Testing

@Suite struct EmailCommandTests {
    /// Ann Smith with a work address and a custom-labelled one, Joanna Ånström without a label,
    /// Bob Nnamdi of Acme, and Carl Young without any address.
    private func sandboxWithPeople() throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Ann", "--last", "Smith", "--email", "work:ann@acme.example", "--email", "Boat:a.smith@home.example"])
        try sandbox.add(["--first", "Joanna", "--last", "Ånström", "--email", "joanna@x.example"])
        try sandbox.add(["--first", "Bob", "--last", "Nnamdi", "--org", "Acme", "--email", "home:bob@acme.example"])
        try sandbox.add(["--first", "Carl", "--last", "Young"])
        return sandbox
    }

    @Test func aStatusLineComesFirstThenAddressNameAndLabel() throws {
        let sandbox = try sandboxWithPeople()
        let lines = try sandbox.succeed(["email", "smith"]).lines
        #expect(lines == [
            "Searching 4 people... 2 matching addresses",
            "ann@acme.example\tAnn Smith\twork",
            "a.smith@home.example\tAnn Smith\tBoat",
        ])
    }

    @Test func noHeaderLeavesOutTheStatusLine() throws {
        let sandbox = try sandboxWithPeople()
        let result = try sandbox.succeed(["email", "--no-header", "joanna"])
        #expect(result.stdout == "joanna@x.example\tJoanna Ånström\t\n")
    }

    @Test func jsonIsAnArrayOfAddressNameLabelAndID() throws {
        let sandbox = try sandboxWithPeople()
        let text = try sandbox.succeed(["email", "--json", "ann"]).stdout
        let found = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(found.map { $0["address"] as? String } == ["ann@acme.example", "a.smith@home.example", "joanna@x.example"])
        #expect(found.map { $0["label"] as? String } == ["work", "Boat", nil])
        #expect(found[2]["label"] is NSNull)
        #expect(found.map { $0["name"] as? String } == ["Ann Smith", "Ann Smith", "Joanna Ånström"])
        #expect(found.map { $0["id"] as? Int } == [1, 1, 2])
    }

    @Test(arguments: ["anstrom", "ÅNSTRÖM", "ａｎｓ", "JOANNA"])
    func caseDiacriticsAndWidthAreIgnored(_ query: String) throws {
        let sandbox = try sandboxWithPeople()
        #expect(try sandbox.succeed(["email", "--no-header", query]).lines == ["joanna@x.example\tJoanna Ånström\t"])
    }

    /// "nn" begins Nnamdi, and lies inside two addresses, but begins no word of Ann's names:
    /// her second address is not listed.
    @Test func onlyTheBeginningsOfNameWordsMatchNamesButAnyPartMatchesAddresses() throws {
        let sandbox = try sandboxWithPeople()
        let addresses = try sandbox.succeed(["email", "--no-header", "nn"]).lines.map { $0.split(separator: "\t")[0] }
        #expect(addresses == ["bob@acme.example", "joanna@x.example", "ann@acme.example"])
    }

    @Test func anAddressIsFoundByAnyPartOfIt() throws {
        let sandbox = try sandboxWithPeople()
        let addresses = try sandbox.succeed(["email", "--no-header", "home.exa"]).lines.map { $0.split(separator: "\t")[0] }
        #expect(addresses == ["a.smith@home.example"])
    }

    /// Whole name words and addresses that begin with the query, then beginnings of name
    /// words, then addresses that only hold the query; the store's order within each.
    @Test func bestMatchesComeFirst() throws {
        let sandbox = try sandboxWithPeople()
        try sandbox.add(["--first", "Annabel", "--last", "Lee", "--email", "bel@lee.example"])
        try sandbox.add(["--first", "Zed", "--last", "Zulu", "--email", "anne.z@zulu.example"])
        try sandbox.add(["--first", "Yan", "--last", "Young", "--email", "yann@young.example"])
        let addresses = try sandbox.succeed(["email", "--no-header", "ann"]).lines.map { $0.split(separator: "\t")[0] }
        #expect(addresses == [
            "ann@acme.example", "a.smith@home.example", "anne.z@zulu.example",  // Ann, then an address starting "ann"
            "bel@lee.example",  // Annabel
            "joanna@x.example", "yann@young.example",  // inside addresses, Ånström before Young
        ])
    }

    @Test func severalWordsAreOneQuery() throws {
        let sandbox = try sandboxWithPeople()
        #expect(try sandbox.succeed(["email", "--no-header", "ann", "home"]).lines == ["a.smith@home.example\tAnn Smith\tBoat"])
        #expect(try sandbox.succeed(["email", "--no-header", "ann home"]).lines == ["a.smith@home.example\tAnn Smith\tBoat"])
    }

    @Test(arguments: [[], [""]])
    func anEmptyQueryListsEveryAddress(query: [String]) throws {
        let sandbox = try sandboxWithPeople()
        let lines = try sandbox.succeed(["email"] + query).lines
        #expect(lines.first == "Searching 4 people... 4 matching addresses")
        #expect(lines.dropFirst().map { $0.split(separator: "\t")[0] } == [
            "joanna@x.example", "bob@acme.example", "ann@acme.example", "a.smith@home.example",
        ])
    }

    @Test func nothingFoundPrintsTheStatusLineAloneAndExits1() throws {
        let sandbox = try sandboxWithPeople()
        let result = try sandbox.run(["email", "carl"])
        #expect(result.status == 1)
        #expect(result.lines == ["Searching 4 people... no matching addresses"])
        #expect(result.stderr.isEmpty)
        let quiet = try sandbox.run(["email", "--no-header", "zz"])
        #expect(quiet.status == 1)
        #expect(quiet.stdout.isEmpty)
        let json = try sandbox.run(["email", "--json", "zz"])
        #expect(json.status == 1)
        #expect(json.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func anEmptyStoreFindsNothing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let result = try sandbox.run(["email"])
        #expect(result.status == 1)
        #expect(result.lines == ["Searching 0 people... no matching addresses"])
    }

    /// A damaged person file is a data error, never "nothing found": mutt would take exit
    /// status 1 for an empty answer.
    @Test func aDamagedPersonFileExits65RatherThanFindingNothing() throws {
        let sandbox = try sandboxWithPeople()
        let file = try #require(try sandbox.storeFiles(in: "people").first { $0.hasPrefix("carl-") })
        try Data("{ damaged".utf8).write(to: sandbox.storeFile("people/\(file)"))
        let result = try sandbox.run(["email", "zz"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aMissingStoreIsNoInput() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["email", "ann"]).status == 66)
    }
}
