import Foundation
import Testing

@Suite struct ReadOnlyCommandsTests {
    @Test func readingCommandsNeverWriteTheStore() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee", "--email", "kim@lee.example", "--group", "Friends", "--create-group"])
        let reference = try #require(try sandbox.json(id)["ref"] as? String)
        let before = try sandbox.snapshot()
        let commands: [[String]] = [
            ["show", id], ["show", id, "--json"], ["show", "kim"], ["list"], ["list", "--json", "--sort", "first"],
            ["list", "--group", "Friends"], ["search", "lee"], ["email", "lee"], ["email", "--json"], ["group", "list"], ["group", "members", "Friends"],
            ["resolve", reference], ["access", "list"], ["access", "status", "x"], ["help"], ["completion", "bash"],
            ["edit", id], ["birthdays"], ["birthdays", "--json", "--days", "7"], ["export", "--format", "ics"],
        ]
        for command in commands {
            try sandbox.succeed(command, environment: ["EDITOR": "true"])
        }
        #expect(try sandbox.snapshot() == before)
    }
}
