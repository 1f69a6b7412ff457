import Foundation
import Testing

@Suite struct SetCommandTests {
    @Test func setChangesTextPropertiesAndAnEmptyValueRemoves() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--note", "old", "--org", "Acme"])
        let result = try sandbox.succeed(["set", id, "lastName=Lee", "note=", "jobTitle=CEO = boss", "birthday=--02-29", "kind=organization"])
        #expect(result.stdout.isEmpty)
        let json = try sandbox.json(id)
        #expect(json["lastName"] as? String == "Lee")
        #expect(json["note"] == nil)
        #expect(json["jobTitle"] as? String == "CEO = boss")
        #expect(json["birthday"] as? String == "--02-29")
        #expect(json["kind"] as? String == "organization")
    }

    @Test func multiValueEntriesKeepTheirIDAndNewOnesGetFreshIDs() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--phone", "mobile:111", "--phone", "work:222"])
        let before = try #require(try sandbox.json(id)["phones"] as? [[String: Any]])
        let keptID = try #require(before[1]["id"] as? Int)
        let droppedID = try #require(before[0]["id"] as? Int)
        try sandbox.succeed(["set", id, #"phones=[{"id": \#(keptID), "label": "work", "value": "222"}, {"label": "home", "value": "333"}]"#])
        let after = try #require(try sandbox.json(id)["phones"] as? [[String: Any]])
        #expect(after.count == 2)
        #expect(after[0]["id"] as? Int == keptID)
        let newID = try #require(after[1]["id"] as? Int)
        #expect(newID != keptID && newID != droppedID)
        #expect(after[1]["label"] as? String == "home")
    }

    @Test(arguments: [#"phones=[{"value": "#, #"phones={"value": "1"}"#, #"addresses=[{"value": "1 Main St"}]"#, "birthday=31/12/1990", "kind=robot"])
    func malformedValuesAreExit65AndChangeNothing(assignment: String) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["set", id, "note=changed", assignment])
        #expect(result.status == 65)
        let key = String(assignment.prefix { $0 != "=" })
        #expect(result.stderr.contains("\"\(key)\""))
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: ["fistName=Kim", "created=2020-01-01T00:00:00Z", "groups=[]"])
    func unknownOrStoreMaintainedKeysAreExit64(assignment: String) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        #expect(try sandbox.run(["set", id, "note=x", assignment]).status == 64)
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: [["1"], ["1", "note"], ["1", "note=a", "note=b"], ["Kim", "note=a"]])
    func malformedSetCommandLinesAreExit64(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        #expect(try sandbox.run(["set"] + arguments).status == 64)
    }

    @Test func anUnknownIDIsExit66() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let result = try sandbox.run(["set", "7", "note=x"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("7"))
    }

    @Test func valueOptionsAddToTheListsAndKeepWhatIsThere() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--phone", "mobile:+1 555 0100", "--email", "kim@example.com"])
        let before = try #require(try sandbox.json(id)["phones"] as? [[String: Any]])
        let result = try sandbox.succeed([
            "set", id, "note=met at work", "--phone", "work:+1 555 0199", "--email", "kim@example.org",
            "--url", "https://kim.example", "--address", "home:1 Main St;Springfield;;;USA",
        ])
        #expect(result.stderr.isEmpty)
        let json = try sandbox.json(id)
        let phones = try #require(json["phones"] as? [[String: Any]])
        #expect(phones.map { $0["value"] as? String } == ["+1 555 0100", "+1 555 0199"])
        #expect(phones.map { $0["label"] as? String } == ["mobile", "work"])
        #expect(phones[0]["id"] as? Int == before[0]["id"] as? Int)
        #expect((json["emails"] as? [[String: Any]])?.map { $0["value"] as? String } == ["kim@example.com", "kim@example.org"])
        #expect((json["urls"] as? [[String: Any]])?.first?["value"] as? String == "https://kim.example")
        let address = try #require((json["addresses"] as? [[String: Any]])?.first)
        #expect(address["label"] as? String == "home")
        #expect((address["value"] as? [String: Any])?["city"] as? String == "Springfield")
        #expect(json["note"] as? String == "met at work")
    }

    @Test func aValueThePersonHasIsNotAddedTwiceAndANoteSaysSo() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--phone", "+1 (555) 0100", "--email", "Kim@Example.com"])
        let before = try sandbox.snapshot()
        let result = try sandbox.succeed(["set", id, "--phone", "work:+15550100", "--email", " kim@example.COM"])
        #expect(result.stderr.contains("not added again"))
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: [["--phone", "1", "phones=[]"], ["--address", "a;b;c;d;e", "addresses="]])
    func addingToAListAndReplacingItAtOnceIsExit64(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        #expect(try sandbox.run(["set", id] + arguments).status == 64)
        #expect(try sandbox.snapshot() == before)
    }

    @Test func aValueTheShellSplitIsShownQuotedAndNothingIsChanged() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["set", id, "--phone", "mobile:+1", "555", "0100", "note=x"])
        #expect(result.status == 64)
        #expect(result.stderr.contains(#"unexpected words 555 0100 after --phone mobile:+1: did you mean --phone "mobile:+1 555 0100"?"#))
        #expect(try sandbox.snapshot() == before)
    }
}
