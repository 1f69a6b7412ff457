import Foundation
import Testing

@Suite struct MergeDriverCommandTests {
    /// Writes base, ours and theirs into the sandbox and returns their paths.
    private func versions(_ sandbox: CLISandbox, _ base: String, _ ours: String, _ theirs: String) throws -> [String] {
        for (name, text) in [("base", base), ("ours", ours), ("theirs", theirs)] {
            try Data(text.utf8).write(to: sandbox.temporary.appending(path: ".merge_file_\(name)"))
        }
        return ["base", "ours", "theirs"].map { sandbox.temporary.appending(path: ".merge_file_\($0)").path(percentEncoded: false) }
    }

    private func person(_ extra: [String]) -> String {
        let members = [
            "  \"firstName\": \"Katie\"", "  \"id\": 1", "  \"lastName\": \"Bell\"", "  \"nameHash\": \"618fd5820d400360\"",
        ] + extra
        return "{\n" + members.sorted().joined(separator: ",\n") + "\n}\n"
    }

    @Test func editsOfDifferentPropertiesAreWrittenIntoOursWithStatusZero() throws {
        let sandbox = try CLISandbox()
        let paths = try versions(
            sandbox, person([]), person(["  \"jobTitle\": \"Pilot\""]), person(["  \"note\": \"Hello\""]))
        let result = try sandbox.run(["merge-driver"] + paths)
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: paths[1], encoding: .utf8) == person(["  \"jobTitle\": \"Pilot\"", "  \"note\": \"Hello\""]))
    }

    @Test func aConflictIsMarkedInOursWithStatusOne() throws {
        let sandbox = try CLISandbox()
        let paths = try versions(
            sandbox, person([]), person(["  \"jobTitle\": \"Pilot\""]), person(["  \"jobTitle\": \"Sailor\""]))
        let result = try sandbox.run(["merge-driver"] + paths + ["people/katie-bell-9dw42k.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("jobTitle"))
        let merged = try String(contentsOfFile: paths[1], encoding: .utf8)
        #expect(merged.contains("<<<<<<< ours\n  \"jobTitle\": \"Pilot\",\n=======\n  \"jobTitle\": \"Sailor\",\n>>>>>>> theirs\n"))
    }

    @Test func membershipFilesMergeAsSets() throws {
        let sandbox = try CLISandbox()
        let paths = try versions(sandbox, "ann-a\nbob-b\n", "ann-a\nbob-b\ncat-c\n", "bob-b\n")
        #expect(try sandbox.run(["merge-driver"] + paths).status == 0)
        #expect(try String(contentsOfFile: paths[1], encoding: .utf8) == "bob-b\ncat-c\n")
    }

    @Test func anUnreadableVersionFallsBackToGitsLineMergeWithStatusOne() throws {
        let sandbox = try CLISandbox()
        let paths = try versions(sandbox, person([]), "{\n  \"id\": 1,\n  oops\n}\n", person(["  \"note\": \"Hello\""]))
        let result = try sandbox.run(["merge-driver"] + paths)
        #expect(result.status == 1)
        let merged = try String(contentsOfFile: paths[1], encoding: .utf8)
        #expect(merged.contains("<<<<<<< ours"))
        #expect(merged.contains("oops"))
    }

    @Test func aDamagedOursWithoutAPathIsAConflictNotAMembershipMerge() throws {
        let sandbox = try CLISandbox()
        let damaged = "x" + person([])
        let paths = try versions(sandbox, person([]), damaged, person(["  \"note\": \"Hello\""]))
        let result = try sandbox.run(["merge-driver"] + paths)
        #expect(result.status == 1)
        let merged = try String(contentsOfFile: paths[1], encoding: .utf8)
        #expect(merged.contains("\"firstName\": \"Katie\""))
    }

    @Test func versionsOfDifferentKindsWithoutAPathAreAConflict() throws {
        let sandbox = try CLISandbox()
        let paths = try versions(sandbox, "ann-a\n", "ann-a\nbob-b\n", person([]))
        #expect(try sandbox.run(["merge-driver"] + paths).status == 1)
    }

    @Test func aMembershipLineThatIsNotAKeyIsAConflict() throws {
        let sandbox = try CLISandbox()
        let paths = try versions(sandbox, "ann-a\nbob-b\n", "ann-a\n\"bob-b\": [\n", "ann-a\nbob-b\ncat-c\n")
        let result = try sandbox.run(["merge-driver"] + paths + ["book/groups/friends-q97zpt.members"])
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: paths[1], encoding: .utf8).contains("\"bob-b\": ["))
    }

    @Test func thePathDecidesTheKindOfFile() throws {
        let sandbox = try CLISandbox()
        let paths = try versions(sandbox, "", "", "ann-a\n")
        #expect(try sandbox.run(["merge-driver"] + paths + ["book/groups/friends-q97zpt.members"]).status == 0)
        #expect(try String(contentsOfFile: paths[1], encoding: .utf8) == "ann-a\n")
        let records = try versions(sandbox, "", "", "ann-a\n")
        #expect(try sandbox.run(["merge-driver"] + records + ["book/people/ann-a.json"]).status == 1)
    }

    @Test func aMissingVersionIsMissingInput() throws {
        let sandbox = try CLISandbox()
        let missing = sandbox.temporary.appending(path: "nope").path(percentEncoded: false)
        #expect(try sandbox.run(["merge-driver", missing, missing, missing]).status == 66)
        #expect(try sandbox.run(["merge-driver", missing]).status == 64)
    }
}
