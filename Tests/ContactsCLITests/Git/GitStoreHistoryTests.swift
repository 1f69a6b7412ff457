import Foundation
import PlainContactsDAV
import Testing
@testable import contacts

/// The history the web pages show, read from Git: a person's versions with the bytes before
/// and after each commit, and the people removed and not back.
@Suite struct GitStoreHistoryTests {
    @Test func aPersonsVersionsAreReadNewestFirstWithTheirAuthorsAndBytes() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("book-repo")
        let id = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        try git.commitAll("contacts: add Katie Bell", in: repository)
        try git.succeed(["set", id, "jobTitle=Pilot"], in: repository)
        try git.commitAll("contacts: web: edit Katie Bell by kim", in: repository)
        let store = git.store(repository)
        let files = try FileManager.default.contentsOfDirectory(atPath: store.appending(path: "people").path)
        let path = "people/" + (try #require(files.first { $0.hasSuffix(".json") }))

        let versions = try GitStoreHistory().versions(ofFile: path, inStoreAt: store)

        #expect(versions.map(\.headline) == ["contacts: web: edit Katie Bell by kim", "contacts: add Katie Bell"])
        #expect(versions.allSatisfy { $0.author == "Test Author" && $0.path == path })
        #expect(versions[1].before == nil)
        #expect(versions[0].before == versions[1].after)
        #expect(versions[0].after == FileManager.default.contents(atPath: store.appending(path: path).path))
        #expect(versions[0].source == "web pages")
    }

    @Test func theRemovedPeopleAreThoseNotBackWithTheirLastVersion() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("book-repo")
        let katie = try git.add(["--first", "Katie", "--last", "Bell", "--title", "Pilot"], in: repository)
        let sam = try git.add(["--first", "Sam", "--last", "Wise"], in: repository)
        try git.commitAll("contacts: add Katie Bell; add Sam Wise", in: repository)
        try git.succeed(["rm", katie], in: repository)
        try git.succeed(["rm", sam], in: repository)
        try git.commitAll("contacts: remove Katie Bell; remove Sam Wise", in: repository)
        try git.git(["revert", "--no-edit", "HEAD"], in: repository)
        try git.succeed(["rm", sam], in: repository)
        try git.commitAll("contacts: remove Sam Wise", in: repository)

        let removed = try GitStoreHistory().removedFiles(inFolder: "people", inStoreAt: git.store(repository))

        #expect(removed.map(\.headline) == ["contacts: remove Sam Wise"])
        #expect(removed.first?.after == nil)
        #expect(removed.first.flatMap(\.before).map { String(decoding: $0, as: UTF8.self).contains("Wise") } == true)
    }

    @Test func theFilesOfACommitAreReadAsItLeftThemOrAsItsParentHadThem() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("book-repo")
        let katie = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        try git.succeed(["group", "create", "Chasers"], in: repository)
        try git.succeed(["group", "add", "Chasers", katie], in: repository)
        try git.commitAll("contacts: add Katie Bell", in: repository)
        try git.succeed(["rm", katie], in: repository)
        try git.commitAll("contacts: remove Katie Bell", in: repository)
        let store = git.store(repository)
        let history = GitStoreHistory()
        let removal = try #require(try history.removedFiles(inFolder: "people", inStoreAt: store).first)

        let before = try history.files(atPaths: ["groups", removal.path], commit: removal.commit, beforeCommit: true, inStoreAt: store)
        let after = try history.files(atPaths: ["groups", removal.path], commit: removal.commit, beforeCommit: false, inStoreAt: store)

        let members = try #require(before.first { $0.key.hasSuffix(".members") })
        #expect(String(decoding: members.value, as: UTF8.self).contains(removal.path.dropFirst("people/".count).dropLast(".json".count)))
        #expect(before[removal.path] == removal.before)
        #expect(before.keys.filter { $0.hasPrefix("groups/") }.count == 2)
        #expect(after[removal.path] == nil)
        #expect(after.first { $0.key.hasSuffix(".members") }?.value.isEmpty == true)
        #expect(throws: StoreHistoryUnavailable.self) {
            try history.files(atPaths: ["groups"], commit: "not-a-commit", beforeCommit: false, inStoreAt: store)
        }
    }

    @Test func aStoreOutsideGitHasNoHistory() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()

        #expect(throws: StoreHistoryUnavailable.self) {
            try GitStoreHistory().removedFiles(inFolder: "people", inStoreAt: sandbox.root.appending(path: "book"))
        }
    }
}
