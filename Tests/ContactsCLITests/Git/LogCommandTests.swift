import Foundation
import Testing

@Suite struct LogCommandTests {
    @Test func eachCommitIsHeadedByTheNameThePersonHadThenWithReadableDiffs() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("book-repo")  // no git-setup: log configures the converter itself
        let id = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        try git.commitAll("Add Katie", in: repository)
        try git.succeed(["set", id, "firstName=Kathryn", "jobTitle=Pilot"], in: repository)
        try git.commitAll("Rename Katie", in: repository)
        try git.add(["--first", "Someone", "--last", "Else"], in: repository)
        try git.commitAll("Add someone else", in: repository)

        let log = try git.succeed(["log", id], in: repository).stdout

        let names = log.split(separator: "\n").filter { $0.hasPrefix("Name:") }
        #expect(names == ["Name:   Kathryn Bell", "Name:   Katie Bell"])
        #expect(log.split(separator: "\n").filter { $0.hasPrefix("commit ") }.count == 2)
        #expect(log.contains("\n    Rename Katie\n"))
        #expect(log.contains("\n-first name: Katie\n+first name: Kathryn\n"))
        #expect(log.contains("\n+job title: Pilot\n"))
        #expect(!log.contains("\"firstName\""))
        #expect(!log.contains("Someone"))
    }

    @Test func eachCommitSaysWhatChangedInWords() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("book-repo")
        let id = try git.add(["--first", "Katie", "--last", "Bell", "--phone", "mobile:+1 555 0100"], in: repository)
        try git.commitAll("Add Katie", in: repository)
        try git.succeed(["set", id, "lastName=Bell-Smith", "jobTitle=Pilot"], in: repository)
        try git.commitAll("Marry Katie", in: repository)

        let log = try git.succeed(["log", id], in: repository).stdout

        #expect(log.contains("\n    Marry Katie\n\n    * name Katie Bell → Katie Bell-Smith\n    * job title added Pilot\n"))
        #expect(log.contains("\n    Add Katie\n\n    * created\n    * name added Katie Bell\n"))
        #expect(log.contains("    * phone mobile added +1 555 0100\n"))
    }

    @Test func aStoreOutsideGitIsAFailure() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Katie"])
        let result = try sandbox.run(["log", id])
        #expect(result.status == 1)
    }

    @Test func anUnknownPersonIsMissingInput() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("book-repo")
        #expect(try git.contacts(["log", "42"], in: repository).status == 66)
    }
}
