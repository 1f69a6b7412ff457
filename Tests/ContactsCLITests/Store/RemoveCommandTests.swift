import Foundation
import Testing

@Suite struct RemoveCommandTests {
    @Test func rmRemovesPeopleAndTheirMemberships() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let kim = try sandbox.add(["--first", "Kim", "--group", "Friends", "--create-group"])
        let lee = try sandbox.add(["--first", "Lee", "--group", "Friends"])
        let ann = try sandbox.add(["--first", "Ann"])
        try sandbox.succeed(["rm", kim, ann])
        #expect(try sandbox.succeed(["list"]).lines.map { $0.prefix(1) } == [Substring(lee)])
        #expect(try sandbox.succeed(["group", "members", "Friends"]).lines.count == 1)
        #expect(try sandbox.storeFiles(in: "people").count == 1)
    }

    @Test func anUnknownIDRemovesNobody() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let kim = try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["rm", kim, "99"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("99"))
        #expect(try sandbox.snapshot() == before)
        #expect(try sandbox.run(["rm"]).status == 64)
    }
}
