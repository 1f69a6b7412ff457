import Foundation
import Testing

@Suite struct DuplicatesCommandTests {
    @Test func likelyDuplicatesAreListedInGroups() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let katie = try sandbox.add(["--first", "Katie", "--last", "Bell", "--phone", "555-555-1234"])
        let john = try sandbox.add(["--first", "John", "--last", "Appleseed", "--email", "john@example.com"])
        let kate = try sandbox.add(["--first", "Kate", "--last", "B", "--phone", "+1 (555) 555-1234"])
        let johnny = try sandbox.add(["--first", "Johnny", "--email", "JOHN@example.com"])
        try sandbox.add(["--first", "Someone", "--last", "Else"])

        let text = try sandbox.succeed(["duplicates"]).stdout
        let blocks = text.split(separator: "\n\n").map { $0.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } }
        #expect(blocks == [[katie, kate], [john, johnny]])

        let json = try sandbox.succeed(["duplicates", "--json"]).stdout
        let groups = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[[String: Any]]])
        #expect(groups.map { $0.compactMap { ($0["id"] as? Int).map(String.init) } } == [[katie, kate], [john, johnny]])
    }

    @Test func noDuplicatesPrintsNothing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell"])
        #expect(try sandbox.succeed(["duplicates"]).stdout.isEmpty)
        #expect(try sandbox.succeed(["duplicates", "--json"]).stdout == "[]\n")
    }

    @Test func mergeKeepsTheFirstPersonAndReferencesToTheSecondFollowIt() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let katie = try sandbox.add(["--first", "Katie", "--last", "Bell", "--phone", "mobile:555-555-1234"])
        let kate = try sandbox.add([
            "--first", "Kate", "--last", "Bell", "--phone", "work:(555) 555-1234", "--phone", "home:555-0199",
            "--title", "Pilot", "--group", "Pilots", "--create-group",
        ])
        let reference = try #require(try sandbox.json(kate)["ref"] as? String)

        #expect(try sandbox.succeed(["merge", katie, kate]).stdout == "\(katie)\n")

        let merged = try sandbox.json(katie)
        #expect(merged["firstName"] as? String == "Katie")
        #expect(merged["jobTitle"] as? String == "Pilot")
        #expect((merged["phones"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["555-555-1234", "555-0199"])
        #expect(merged["groups"] as? [String] == ["Pilots"])
        #expect(try sandbox.run(["show", kate]).status == 66)
        #expect(try sandbox.succeed(["resolve", reference]).stdout == "\(katie)\n")
    }

    @Test func mergeNeedsTwoDifferentExistingPeople() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let katie = try sandbox.add(["--first", "Katie"])
        #expect(try sandbox.run(["merge", katie, katie]).status == 64)
        #expect(try sandbox.run(["merge", katie, "99"]).status == 66)
        #expect(try sandbox.run(["merge", katie]).status == 64)
    }
}
