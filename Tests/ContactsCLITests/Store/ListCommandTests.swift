import Foundation
import Testing

@Suite struct ListCommandTests {
    private func sandboxWithPeople() throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell", "--org", "Acme Inc.", "--phone", "+1 (555) 010-0", "--email", "Katie@Example.com"])
        try sandbox.add(["--first", "John", "--last", "Appleseed", "--org", "Apple", "--phone", "555 0199", "--email", "john@apple.example"])
        try sandbox.add(["--first", "Ada", "--last", "Zed", "--email", "ada@example.com"])
        return sandbox
    }

    @Test func listPrintsIDNamePhoneAndEmailSeparatedByTabsInTheStoreOrder() throws {
        let sandbox = try sandboxWithPeople()
        let lines = try sandbox.succeed(["list"]).lines
        #expect(lines == [
            "2\tJohn Appleseed\t555 0199\tjohn@apple.example",
            "1\tKatie Bell\t+1 (555) 010-0\tKatie@Example.com",
            "3\tAda Zed\t\tada@example.com",
        ])
    }

    @Test func sortFirstSortsByFirstName() throws {
        let sandbox = try sandboxWithPeople()
        let ids = try sandbox.succeed(["list", "--sort", "first"]).lines.map { $0.split(separator: "\t")[0] }
        #expect(ids == ["3", "2", "1"])
    }

    @Test(arguments: [
        (["--email", "EXAMPLE.COM"], ["1", "3"]),
        (["--phone", "5550100"], ["1"]),
        (["--phone", "555-01"], ["2", "1"]),
        (["--org", "acme"], ["1"]),
        (["--org", "app", "--email", "john"], ["2"]),
        (["--email", "nobody"], []),
    ])
    func filtersKeepMatchingPeople(filter: [String], ids: [String]) throws {
        let sandbox = try sandboxWithPeople()
        let listed = try sandbox.succeed(["list"] + filter).lines.map { String($0.split(separator: "\t")[0]) }
        #expect(listed == ids)
    }

    @Test func aPhoneFilterWithoutDigitsIsAUsageError() throws {
        let sandbox = try sandboxWithPeople()
        #expect(try sandbox.run(["list", "--phone", "abc"]).status == 64)
    }

    @Test func groupFilterListsTheMembers() throws {
        let sandbox = try sandboxWithPeople()
        try sandbox.succeed(["group", "create", "Friends"])
        try sandbox.succeed(["group", "add", "Friends", "3", "1"])
        #expect(try sandbox.succeed(["list", "--group", "Friends"]).lines.map { $0.prefix(1) } == ["1", "3"])
        #expect(try sandbox.run(["list", "--group", "Enemies"]).status == 66)
    }

    @Test func listJSONIsAnArrayOfPersonViews() throws {
        let sandbox = try sandboxWithPeople()
        let text = try sandbox.succeed(["list", "--json"]).stdout
        let people = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(people.map { $0["id"] as? Int } == [2, 1, 3])
        #expect(people.allSatisfy { $0["ref"] is String && $0["compositeName"] is String })
    }

    @Test func anEmptyStoreListsNothing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.succeed(["list"]).stdout.isEmpty)
        #expect(try sandbox.succeed(["list", "--json"]).stdout == "[]\n")
    }

    @Test func searchFindsPeopleByTheBeginningsOfTheirNames() throws {
        let sandbox = try sandboxWithPeople()
        #expect(try sandbox.succeed(["search", "kat"]).lines.map { $0.prefix(1) } == ["1"])
        #expect(try sandbox.succeed(["search", "j", "app"]).lines.map { $0.prefix(1) } == ["2"])
        #expect(try sandbox.succeed(["search", "ACME"]).lines.map { $0.prefix(1) } == ["1"])
        let none = try sandbox.succeed(["search", "zzz", "--json"])
        #expect(none.stdout == "[]\n")
        #expect(try sandbox.run(["search"]).status == 64)
    }
}
