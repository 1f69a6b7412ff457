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
}
