import Foundation
import Testing

@Suite struct ShowCommandTests {
    @Test func showPrintsTheCompositeNameThenLabelledFields() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Friends"])
        let id = try sandbox.add([
            "--first", "Katie", "--last", "Bell", "--org", "Acme", "--phone", "mobile:+1 555 0100",
            "--email", "work:katie@example.com", "--address", "home:1 Main St;Springfield;IL;62701", "--group", "Friends",
        ])
        try sandbox.succeed(["set", id, #"dates=[{"label": "anniversary", "value": "2015-06-01"}]"#])
        let result = try sandbox.succeed(["show", id])
        let lines = result.lines
        #expect(lines.first == "Katie Bell")
        #expect(lines.contains { $0.hasPrefix("  phone (mobile)") && $0.hasSuffix("+1 555 0100") })
        #expect(lines.contains { $0.hasPrefix("  email (work)") && $0.hasSuffix("katie@example.com") })
        #expect(lines.contains { $0.hasPrefix("  address (home)") && $0.hasSuffix("1 Main St") })
        #expect(lines.contains { $0.hasSuffix("Springfield, IL 62701") })
        #expect(lines.contains { $0.hasPrefix("  date (anniversary)") && $0.hasSuffix("2015-06-01") })
        #expect(lines.contains { $0.hasPrefix("  groups") && $0.hasSuffix("Friends") })
        #expect(lines.contains { $0.hasPrefix("  id") && $0.hasSuffix(id) })
    }

    @Test func showFindsAPersonByAUniqueName() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell"])
        try sandbox.add(["--first", "John", "--last", "Appleseed"])
        #expect(try sandbox.succeed(["show", "kat"]).lines.first == "Katie Bell")
        #expect(try sandbox.succeed(["show", "john", "apple"]).lines.first == "John Appleseed")
    }

    @Test func anAmbiguousNameListsTheCandidatesAndIsExit64() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let kim = try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let kimberly = try sandbox.add(["--first", "Kimberly", "--last", "Stone"])
        try sandbox.add(["--first", "John"])
        let result = try sandbox.run(["show", "kim"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("be more specific or use an ID"))
        #expect(result.stderr.contains("\(kim)\tKim Lee"))
        #expect(result.stderr.contains("\(kimberly)\tKimberly Stone"))
        #expect(!result.stderr.contains("John"))
    }

    @Test func noMatchIsExit66WithoutEchoingTheName() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie"])
        let result = try sandbox.run(["show", "Zebulon"])
        #expect(result.status == 66)
        #expect(!result.stderr.contains("Zebulon"))
        #expect(try sandbox.run(["show", "42"]).status == 66)
    }

    @Test func showJSONHasTheContractKeys() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Friends"])
        let id = try sandbox.add([
            "--first", "Katie", "--last", "Bell", "--middle", "Q", "--prefix", "Dr.", "--suffix", "Jr.",
            "--nickname", "Kat", "--org", "Acme", "--department", "R&D", "--title", "Engineer", "--note", "n",
            "--birthday", "--04-12", "--phone", "mobile:1", "--email", "e@example.com", "--url", "https://k.example",
            "--address", "home:1 Main St;Springfield", "--group", "Friends",
        ])
        try sandbox.succeed([
            "set", id, "firstNamePhonetic=ケイティ", "lastNamePhonetic=ベル", "middleNamePhonetic=キュー",
            #"relatedNames=[{"label": "spouse", "value": "Sam"}]"#,
            #"dates=[{"label": "anniversary", "value": "2015-06-01"}]"#,
            #"instantMessages=[{"value": {"service": "Matrix", "username": "@katie:example.org"}}]"#,
            #"socialProfiles=[{"value": {"service": "Mastodon", "url": "https://m.example/@katie"}}]"#,
        ])
        let json = try sandbox.json(id)
        let expected: Set<String> = [
            "id", "ref", "kind", "compositeName", "firstName", "lastName", "middleName", "prefix", "suffix", "nickname",
            "organization", "department", "jobTitle", "note", "birthday", "phones", "emails", "urls", "relatedNames",
            "dates", "addresses", "instantMessages", "socialProfiles", "groups", "hasImage", "firstNamePhonetic",
            "lastNamePhonetic", "middleNamePhonetic", "created", "modified",
        ]
        #expect(Set(json.keys) == expected)
        #expect(json["id"] as? Int == Int(id))
        #expect((json["ref"] as? String)?.hasPrefix("v1:\(id):") == true)
        #expect(json["groups"] as? [String] == ["Friends"])
        #expect(json["hasImage"] as? Bool == false)
        let phone = try #require((json["phones"] as? [[String: Any]])?.first)
        #expect(Set(phone.keys) == ["id", "label", "value"])
        let address = try #require((json["addresses"] as? [[String: Any]])?.first?["value"] as? [String: String])
        #expect(address == ["street": "1 Main St", "city": "Springfield"])
        let message = try #require((json["instantMessages"] as? [[String: Any]])?.first?["value"] as? [String: String])
        #expect(message == ["service": "Matrix", "username": "@katie:example.org"])
        let created = try #require(json["created"] as? String)
        #expect(created.count == 20 && created.hasSuffix("Z"))
    }

    @Test func jsonOutputIsCanonicalAndLeavesOutAbsentProperties() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--phone", "555"])
        let text = try sandbox.succeed(["show", id, "--json"]).stdout
        #expect(text.hasPrefix("{\n  \"compositeName\": \"Kim\",\n"))
        #expect(text.hasSuffix("}\n"))
        let keys = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]).keys
        #expect(Set(keys) == ["id", "ref", "kind", "compositeName", "firstName", "phones", "groups", "hasImage", "created", "modified"])
        #expect(!text.contains("\"label\""))
    }
}
