import Foundation
import Testing

@Suite struct ResolveCommandTests {
    @Test func aCurrentReferenceIsFound() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let reference = try #require(try sandbox.json(id)["ref"] as? String)
        #expect(try sandbox.succeed(["resolve", reference]).stdout == "\(id)\n")
        let json = try sandbox.succeed(["resolve", reference, "--json"]).stdout
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "found")
        #expect(object["id"] as? Int == Int(id))
        #expect(object["ref"] as? String == reference)
    }

    @Test func aRenumberedPersonIsReidentifiedWithAFreshReference() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let reference = try #require(try sandbox.json(id)["ref"] as? String)
        let file = try #require(try sandbox.storeFiles(in: "people").first)
        let url = sandbox.storeFile("people/\(file)")
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"id\": \(id),", with: "\"id\": 50,").utf8).write(to: url)
        let json = try sandbox.succeed(["resolve", reference, "--json"]).stdout
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "reidentified")
        #expect(object["id"] as? Int == 50)
        #expect((object["ref"] as? String)?.hasPrefix("v1:50:") == true)
        #expect(try sandbox.succeed(["resolve", reference]).stdout == "50\n")
    }

    @Test func severalPeopleWithTheReferencedNameAreAmbiguousWithExit1() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let first = try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let second = try sandbox.add(["--first", "Kim", "--last", "Lee", "--phone", "2"])
        let reference = try #require(try sandbox.json(first)["ref"] as? String)
        let parts = reference.split(separator: ":")
        let stale = "v1:999:\(parts[2]):gone-abc234"
        let result = try sandbox.run(["resolve", stale, "--json"])
        #expect(result.status == 1)
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "ambiguous")
        let candidates = try #require(object["candidates"] as? [[String: Any]])
        #expect(Set(candidates.compactMap { $0["id"] as? Int }) == [Int(first), Int(second)])
        #expect(result.stderr.contains(first) && result.stderr.contains(second))
    }

    @Test func aReferenceToNobodyIsExit66() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee"])
        let reference = try #require(try sandbox.json(id)["ref"] as? String)
        try sandbox.succeed(["rm", id])
        #expect(try sandbox.run(["resolve", reference]).status == 66)
        let result = try sandbox.run(["resolve", reference, "--json"])
        #expect(result.status == 66)
        #expect(result.stdout.contains("\"notFound\""))
    }

    @Test(arguments: ["12", "v2:1:abc:key", "v1:x:y:z"])
    func aMalformedReferenceIsAUsageError(text: String) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.run(["resolve", text]).status == 64)
    }
}
