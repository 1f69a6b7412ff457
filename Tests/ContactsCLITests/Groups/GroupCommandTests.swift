import Foundation
import Testing

@Suite struct GroupCommandTests {
    @Test func createPrintsTheIDAndListShowsNameAndMemberCount() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.succeed(["group", "create", "Friends"]).stdout == "1\n")
        #expect(try sandbox.succeed(["group", "create", "Work"]).stdout == "2\n")
        try sandbox.add(["--first", "Kim", "--group", "Work"])
        #expect(try sandbox.succeed(["group", "list"]).lines == ["1\tFriends\t0", "2\tWork\t1"])
        let json = try sandbox.succeed(["group", "list", "--json"]).stdout
        let groups = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Friends", "Work"])
        #expect(groups.map { $0["memberCount"] as? Int } == [0, 1])
    }

    @Test func aSecondGroupWithTheSameNameIsRefused() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Friends"])
        #expect(try sandbox.run(["group", "create", "Friends"]).status == 1)
        #expect(try sandbox.run(["group", "create", " "]).status == 64)
    }

    @Test func renameAndRemoveTakeAnIDOrAName() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Friends"])
        try sandbox.succeed(["group", "create", "Work"])
        try sandbox.succeed(["group", "rename", "Friends", "Family"])
        try sandbox.succeed(["group", "rename", "2", "Office"])
        #expect(try sandbox.succeed(["group", "list"]).lines == ["1\tFamily\t0", "2\tOffice\t0"])
        #expect(try sandbox.run(["group", "rename", "Family", "Office"]).status == 1)
        let kim = try sandbox.add(["--first", "Kim", "--group", "Office"])
        try sandbox.succeed(["group", "rm", "Office"])
        try sandbox.succeed(["group", "rm", "1"])
        #expect(try sandbox.succeed(["group", "list"]).stdout.isEmpty)
        #expect(try sandbox.json(kim)["groups"] as? [String] == [])
    }

    @Test func addAndRemoveChangeMembersInOneSave() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Friends"])
        let kim = try sandbox.add(["--first", "Kim", "--last", "Lee", "--phone", "111"])
        let ann = try sandbox.add(["--first", "Ann", "--last", "Zed"])
        try sandbox.succeed(["group", "add", "Friends", kim, ann])
        #expect(try sandbox.succeed(["group", "members", "Friends"]).lines == ["\(kim)\tKim Lee\t111\t", "\(ann)\tAnn Zed\t\t"])
        #expect(try sandbox.succeed(["group", "members", "Friends", "--sort", "first"]).lines.first?.hasPrefix(ann) == true)
        try sandbox.succeed(["group", "remove", "Friends", kim])
        let json = try sandbox.succeed(["group", "members", "1", "--json"]).stdout
        let members = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(members.map { $0["id"] as? Int } == [Int(ann)])
    }

    @Test func anUnknownMemberIDAddsNobody() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Friends"])
        let kim = try sandbox.add(["--first", "Kim"])
        #expect(try sandbox.run(["group", "add", "Friends", kim, "42"]).status == 66)
        #expect(try sandbox.succeed(["group", "members", "Friends"]).stdout.isEmpty)
    }

    @Test(arguments: [["members", "Enemies"], ["rm", "9"], ["rename", "Enemies", "Foes"], ["add", "Enemies", "1"]])
    func anUnknownGroupIsExit66(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        #expect(try sandbox.run(["group"] + arguments).status == 66)
    }

    @Test func anAmbiguousGroupNameIsExit64ListingTheIDs() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Team"])
        // A second group of the same name, as a merge of two clones can leave behind.
        let file = try #require(try sandbox.storeFiles(in: "groups").first { $0.hasSuffix(".json") })
        let text = try String(contentsOf: sandbox.storeFile("groups/\(file)"), encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"id\": 1,", with: "\"id\": 7,").utf8)
            .write(to: sandbox.storeFile("groups/team-zzz234.json"))
        let result = try sandbox.run(["group", "members", "Team"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("1, 7"))
        try sandbox.succeed(["group", "members", "7"])
    }

    @Test func groupWithoutASubcommandIsAUsageError() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.run(["group"]).status == 64)
    }
}
