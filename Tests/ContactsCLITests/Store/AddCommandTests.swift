import Foundation
import Testing

@Suite struct AddCommandTests {
    @Test func addPrintsTheNewRecordIDAlone() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let first = try sandbox.succeed(["add", "--first", "Katie", "--last", "Bell"])
        #expect(first.stdout == "1\n")
        let second = try sandbox.succeed(["add", "--org", "Acme"])
        #expect(second.stdout == "2\n")
    }

    @Test func addSetsEveryTextProperty() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add([
            "--first", "Katie", "--last", "Bell", "--middle", "Q", "--prefix", "Dr.", "--suffix", "Jr.",
            "--nickname", "Kat", "--org", "Acme", "--department", "R&D", "--title", "Engineer", "--note", "Met in Oslo",
            "--birthday", "1990-04-12",
        ])
        let json = try sandbox.json(id)
        #expect(json["firstName"] as? String == "Katie")
        #expect(json["middleName"] as? String == "Q")
        #expect(json["prefix"] as? String == "Dr.")
        #expect(json["suffix"] as? String == "Jr.")
        #expect(json["nickname"] as? String == "Kat")
        #expect(json["organization"] as? String == "Acme")
        #expect(json["department"] as? String == "R&D")
        #expect(json["jobTitle"] as? String == "Engineer")
        #expect(json["note"] as? String == "Met in Oslo")
        #expect(json["birthday"] as? String == "1990-04-12")
        #expect(json["compositeName"] as? String == "Dr. Katie Q Bell Jr.")
    }

    @Test func aBirthdayWithoutAYearIsWrittenWithTwoDashes() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--birthday", "--04-12"])
        #expect(try sandbox.json(id)["birthday"] as? String == "--04-12")
    }

    @Test(arguments: [["--birthday", "1990-02-30"], ["--kind", "robot"], ["--address", "a;b;c;d;e;f"], ["--phone", "mobile:"]])
    func badValuesAreUsageErrorsAndSaveNothing(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let result = try sandbox.run(["add", "--first", "Kim"] + arguments)
        #expect(result.status == 64)
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
    }

    @Test func addWithoutAnyValueIsAUsageError() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.run(["add"]).status == 64)
    }

    struct LabelCase: Sendable, CustomTestStringConvertible {
        var option: String
        var text: String
        var label: String?
        var value: String
        var testDescription: String { "\(option) \(text)" }
    }

    static let labelCases: [LabelCase] = [
        LabelCase(option: "phone", text: "mobile:+1 555 0100", label: "mobile", value: "+1 555 0100"),
        LabelCase(option: "phone", text: "+1 555 0100", label: nil, value: "+1 555 0100"),
        LabelCase(option: "phone", text: "iPhone: 555", label: "iPhone", value: "555"),
        LabelCase(option: "phone", text: "HOMEFAX:555", label: "homeFax", value: "555"),
        LabelCase(option: "phone", text: "home fax:555", label: "homeFax", value: "555"),
        LabelCase(option: "phone", text: "Boat:555", label: "Boat", value: "555"),
        LabelCase(option: "phone", text: "ext 12:555", label: nil, value: "ext 12:555"),
        LabelCase(option: "phone", text: ":a:b", label: nil, value: "a:b"),
        LabelCase(option: "phone", text: "tel:+15550100", label: nil, value: "tel:+15550100"),
        LabelCase(option: "email", text: "work:kim@example.com", label: "work", value: "kim@example.com"),
        LabelCase(option: "email", text: "kim@example.com", label: nil, value: "kim@example.com"),
        LabelCase(option: "email", text: "mailto:kim@example.com", label: nil, value: "mailto:kim@example.com"),
        LabelCase(option: "url", text: "https://example.com/a:b", label: nil, value: "https://example.com/a:b"),
        LabelCase(option: "url", text: "homePage:https://example.com", label: "homePage", value: "https://example.com"),
        LabelCase(option: "url", text: "blog:http://example.com", label: "blog", value: "http://example.com"),
        LabelCase(option: "url", text: "example.com:8080", label: nil, value: "example.com:8080"),
    ]

    @Test(arguments: labelCases)
    func labelsAreThePartBeforeTheFirstColonOnlyWhenTheyLookLikeALabel(labelCase: LabelCase) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--\(labelCase.option)", labelCase.text])
        let key = labelCase.option == "phone" ? "phones" : labelCase.option == "email" ? "emails" : "urls"
        let entries = try #require(try sandbox.json(id)[key] as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["label"] as? String == labelCase.label)
        #expect(entries.first?["value"] as? String == labelCase.value)
    }

    @Test func repeatedOptionsAddSeveralValuesInOrder() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--phone", "mobile:1", "--phone", "work:2", "--phone", "3"])
        let phones = try #require(try sandbox.json(id)["phones"] as? [[String: Any]])
        #expect(phones.map { $0["value"] as? String } == ["1", "2", "3"])
        #expect(Set(phones.compactMap { $0["id"] as? Int }).count == 3)
    }

    @Test func addressesTakeLabelledPartsSeparatedBySemicolons() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add([
            "--first", "Kim", "--address", "home:1 Main St;Springfield;IL;62701;USA", "--address", "PO Box 7;;;99999",
        ])
        let addresses = try #require(try sandbox.json(id)["addresses"] as? [[String: Any]])
        #expect(addresses.count == 2)
        #expect(addresses[0]["label"] as? String == "home")
        let home = try #require(addresses[0]["value"] as? [String: String])
        #expect(home == ["street": "1 Main St", "city": "Springfield", "state": "IL", "zip": "62701", "country": "USA"])
        #expect(addresses[1]["label"] == nil)
        #expect(addresses[1]["value"] as? [String: String] == ["street": "PO Box 7", "zip": "99999"])
    }

    @Test func aMissingGroupIsExit66AndNothingIsSaved() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let result = try sandbox.run(["add", "--first", "Kim", "--group", "Friends"])
        #expect(result.status == 66)
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
        #expect(try sandbox.storeFiles(in: "groups").isEmpty)
    }

    @Test func createGroupCreatesMissingGroupsAndJoinsThem() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Work"])
        let id = try sandbox.add(["--first", "Kim", "--group", "Friends", "--group", "Work", "--create-group"])
        #expect(try sandbox.json(id)["groups"] as? [String] == ["Friends", "Work"])
        #expect(try sandbox.succeed(["group", "list"]).lines.count == 2)
    }

    @Test func organizationsAreShownByTheirName() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--kind", "organization", "--org", "Acme Inc.", "--first", "Kim"])
        let json = try sandbox.json(id)
        #expect(json["kind"] as? String == "organization")
        #expect(json["compositeName"] as? String == "Acme Inc.")
    }
}

@Suite struct AddCommandNameTests {
    @Test(arguments: [["Ada Lovelace"], ["Lovelace, Ada"], ["Ada", "Lovelace"]])
    func addTakesTheWholeNameAsItIsWritten(name: [String]) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(name)
        let json = try sandbox.json(id)
        #expect(json["firstName"] as? String == "Ada")
        #expect(json["lastName"] as? String == "Lovelace")
    }

    @Test func prefixAndSuffixOptionsOverrideThePartsOfTheWrittenName() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["Dr. Ada Lovelace", "--prefix", "Prof.", "--suffix", "FRS", "--phone", "555-0100"])
        let json = try sandbox.json(id)
        #expect(json["prefix"] as? String == "Prof.")
        #expect(json["firstName"] as? String == "Ada")
        #expect(json["lastName"] as? String == "Lovelace")
        #expect(json["suffix"] as? String == "FRS")
    }

    @Test func anOrganizationsWrittenNameIsItsOrganization() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["Acme Widgets", "--kind", "organization"])
        let json = try sandbox.json(id)
        #expect(json["organization"] as? String == "Acme Widgets")
        #expect(json["firstName"] == nil)
    }
}
