import Foundation
import Testing

/// Commands in a store with `"autoCommit": true` and `"autoPush": true` push their commits.
@Suite struct AutoPushTests {
    /// A store committing and pushing every change, with a bare repository as its `origin`.
    private func pushingStore() throws -> (git: GitRepositories, repository: URL, origin: URL) {
        let git = GitRepositories(sandbox: try CLISandbox())
        let repository = try git.makeRepository("desk")
        try git.succeed(["git-setup"], in: repository)
        let origin = try git.bareClone(repository, as: "origin.git")
        try git.git(["remote", "add", "origin", origin.path(percentEncoded: false)], in: repository)
        try git.git(["fetch", "--quiet", "origin"], in: repository)
        try git.git(["branch", "--quiet", "--set-upstream-to=origin/main"], in: repository)
        let manifest = git.store(repository).appending(path: "store.json")
        var fields = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        fields["autoCommit"] = true
        fields["autoPush"] = true
        try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .prettyPrinted]).write(to: manifest)
        // The manifest written back in the store's own form, which is committed and pushed.
        try git.succeed(["doctor", "--fix"], in: repository)
        #expect(try git.git(["status", "--porcelain"], in: repository).stdout.isEmpty)
        return (git, repository, origin)
    }

    @Test func aCommandsCommitIsPushed() throws {
        let (git, repository, origin) = try pushingStore()
        try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        #expect(try git.git(["log", "-1", "--format=%s", "main"], in: origin).stdout.hasPrefix("contacts: add Katie Bell"))
    }

    @Test func aFailedPushKeepsTheChangeAndIsReported() throws {
        let (git, repository, origin) = try pushingStore()
        try git.git(["remote", "set-url", "origin", origin.path(percentEncoded: false) + "-down"], in: repository)
        let added = try git.contacts(["add", "--first", "Katie", "--last", "Bell"], in: repository)
        #expect(added.status == 0)
        #expect(added.stderr.contains("committed but not pushed"))
        #expect(try git.succeed(["doctor"], in: repository).stdout.contains("1 commit not pushed to origin since"))

        try git.git(["remote", "set-url", "origin", origin.path(percentEncoded: false)], in: repository)
        try git.add(["--first", "John", "--last", "Appleseed"], in: repository)
        #expect(try git.git(["log", "--format=%s", "main"], in: origin).lines.prefix(2).map { $0.prefix(20) } == ["contacts: add John A", "contacts: add Katie "])
        #expect(!(try git.succeed(["doctor"], in: repository)).stdout.contains("not pushed"))
    }
}
