import Foundation
import Testing

@Suite struct DoctorCommandTests {
    @Test func aHealthyStoreExitsZero() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell", "--group", "Friends", "--create-group"])
        let result = try sandbox.succeed(["doctor"])
        #expect(result.stdout == "The store is healthy.\n")
        let json = try #require(JSONSerialization.jsonObject(with: Data(try sandbox.succeed(["doctor", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(json["healthy"] as? Bool == true)
        #expect((json["findings"] as? [Any])?.isEmpty == true)
    }

    @Test func fixableProblemsExit65UntilFixed() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell", "--group", "Friends", "--create-group"])
        let members = try #require(try sandbox.storeFiles(in: "groups").first { $0.hasSuffix(".members") })
        let membersURL = sandbox.storeFile("groups/\(members)")
        let canonical = try String(contentsOf: membersURL, encoding: .utf8)
        try Data((canonical + "zz-nobody-zzzzzz\n").utf8).write(to: membersURL)
        try Data("x".utf8).write(to: sandbox.storeFile("people/.katie.json.tmp-1234"))

        let check = try sandbox.run(["doctor"])
        #expect(check.status == 65)
        #expect(check.stdout.contains("groups/\(members):2: danglingMember (fixable)"))
        #expect(check.stdout.contains("people/.katie.json.tmp-1234: strayTemporaryFile (fixable)"))

        let fix = try sandbox.run(["doctor", "--fix"])
        #expect(fix.status == 0)
        #expect(fix.stdout.contains("danglingMember (fixed)"))
        #expect(try String(contentsOf: membersURL, encoding: .utf8) == canonical)
        #expect(try sandbox.succeed(["doctor"]).stdout == "The store is healthy.\n")
    }

    @Test func aMalformedFileRemainsAndExits65() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell"])
        try Data("{\n  \"id\": 5,\n  \"firstName\" \"Ann\"\n}\n".utf8).write(to: sandbox.storeFile("people/ann-lee-aaaaaa.json"))

        let fix = try sandbox.run(["doctor", "--fix", "--json"])
        #expect(fix.status == 65)
        let json = try #require(JSONSerialization.jsonObject(with: Data(fix.stdout.utf8)) as? [String: Any])
        #expect(json["healthy"] as? Bool == false)
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["kind"] as? String == "malformedFile")
        #expect(findings.first?["path"] as? String == "people/ann-lee-aaaaaa.json")
        #expect(findings.first?["line"] as? Int == 3)
        #expect(findings.first?["fixed"] as? Bool == false)
    }

    @Test func aFolderWithoutAStoreIsMissingInput() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["doctor"]).status == 66)
    }
}
