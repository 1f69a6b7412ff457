import Foundation
import Testing

@Suite struct BirthdaysCommandTests {
    private let today = ["CONTACTS_TODAY": "2026-11-26"]

    private func makeSandbox() throws -> (CLISandbox, katie: String, john: String) {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let katie = try sandbox.add(["--first", "Katie", "--last", "Bell", "--birthday", "1986-12-03"])
        let john = try sandbox.add(["--first", "John", "--last", "Appleseed", "--birthday", "--11-26"])
        try sandbox.succeed(["set", john, #"dates=[{"label": "anniversary", "value": "2016-01-10"}]"#])
        try sandbox.add(["--first", "No", "--last", "Dates"])
        return (sandbox, katie, john)
    }

    @Test func occurrencesArePrintedSoonestFirstInAlignedColumns() throws {
        let (sandbox, katie, john) = try makeSandbox()
        let text = try sandbox.succeed(["birthdays"], environment: today).stdout
        #expect(
            text == """
                \(john)\t2026-11-26  today       John Appleseed  birthday
                \(katie)\t2026-12-03  in 7 days   Katie Bell      birthday (turns 40)
                \(john)\t2027-01-10  in 45 days  John Appleseed  anniversary (11 years)

                """)
        let week = try sandbox.succeed(["birthdays", "--days", "7"], environment: today).stdout
        #expect(week.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == [john, katie])
    }

    @Test func jsonGivesEachOccurrenceAsAnObject() throws {
        let (sandbox, katie, john) = try makeSandbox()
        let json = try sandbox.succeed(["birthdays", "--json", "--days", "7"], environment: today).stdout
        let items = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items[0]["id"] as? Int == Int(john))
        #expect(items[0]["kind"] as? String == "birthday")
        #expect(items[0]["date"] as? String == "--11-26")
        #expect(items[0]["next"] as? String == "2026-11-26")
        #expect(items[0]["inDays"] as? Int == 0)
        #expect(items[0]["age"] == nil)
        #expect(items[1]["id"] as? Int == Int(katie))
        #expect(items[1]["name"] as? String == "Katie Bell")
        #expect(items[1]["age"] as? Int == 40)
        #expect(items[1]["inDays"] as? Int == 7)
    }

    @Test func aWrongDayCountOrTodayIsAUsageError() throws {
        let (sandbox, _, _) = try makeSandbox()
        #expect(try sandbox.run(["birthdays", "--days", "-1"], environment: today).status == 64)
        #expect(try sandbox.run(["birthdays", "--days", "many"], environment: today).status == 64)
        #expect(try sandbox.run(["birthdays"], environment: ["CONTACTS_TODAY": "--11-26"]).status == 64)
    }
}
