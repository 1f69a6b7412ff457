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

    @Test func aLongHistoryIsReadAPageAtATimeLeavingOutOtherFilesCommits() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("book-repo")
        let id = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        try git.succeed(["set", id, "note=n0"], in: repository)
        try git.commitAll("contacts: add Katie Bell", in: repository)
        let path = try git.personFile(id, in: repository)
        let file = git.store(repository).appending(path: path)
        for number in 1...54 {
            let text = try String(contentsOf: file, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "\"note\": \"n\(number - 1)\"", with: "\"note\": \"n\(number)\"").utf8).write(to: file)
            try git.commitAll("Note \(number)", in: repository)
            // Commits of other files, which Git's own paging would count.
            if number % 10 == 0 {
                _ = try git.add(["--first", "Other\(number)"], in: repository)
                try git.commitAll("Add Other\(number)", in: repository)
            }
        }
        let history = GitStoreHistory()
        let store = git.store(repository)

        let first = try history.versions(ofFile: path, skipping: 0, limit: 50, inStoreAt: store)
        let second = try history.versions(ofFile: path, skipping: 50, limit: 50, inStoreAt: store)
        let all = try history.versions(ofFile: path, skipping: 0, limit: nil, inStoreAt: store)

        #expect(first.count == 50)
        #expect(first.first?.headline == "Note 54")
        #expect(first.last?.headline == "Note 5")
        #expect(second.map(\.headline) == ["Note 4", "Note 3", "Note 2", "Note 1", "contacts: add Katie Bell"])
        #expect(second.first?.after == first.last?.before)
        #expect(all.count == 55)
        #expect(!all.contains { $0.isMerge })
    }

    @Test func aMergeIsListedWhenItsFileDiffersFromEachParentWithTheFirstParentsFileBefore() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let repository = try git.makeRepository("book-repo")
        try git.succeed(["git-setup"], in: repository)
        let id = try git.add(["--first", "Katie", "--last", "Bell"], in: repository)
        try git.commitAll("contacts: add Katie Bell", in: repository)
        try git.git(["checkout", "--quiet", "-b", "phone"], in: repository)
        try git.succeed(["set", id, "jobTitle=Pilot"], in: repository)
        try git.commitAll("contacts: edit Katie Bell on the phone", in: repository)
        try git.git(["checkout", "--quiet", "main"], in: repository)
        try git.succeed(["set", id, "note=Met at the match"], in: repository)
        try git.commitAll("contacts: edit Katie Bell here", in: repository)
        try git.git(["merge", "--quiet", "--no-edit", "phone"], in: repository)
        // A merge that takes Katie Bell's file from one side as it was is no change of hers.
        try git.git(["checkout", "--quiet", "-b", "other"], in: repository)
        _ = try git.add(["--first", "Sam"], in: repository)
        try git.commitAll("contacts: add Sam", in: repository)
        try git.git(["checkout", "--quiet", "main"], in: repository)
        try git.succeed(["set", id, "nickname=KB"], in: repository)
        try git.commitAll("contacts: edit Katie Bell again", in: repository)
        try git.git(["merge", "--quiet", "--no-edit", "other"], in: repository)
        let path = try git.personFile(id, in: repository)

        let versions = try GitStoreHistory().versions(ofFile: path, inStoreAt: git.store(repository))

        #expect(versions.map(\.headline) == [
            "contacts: edit Katie Bell again", "Merge branch 'phone'", "contacts: edit Katie Bell here",
            "contacts: edit Katie Bell on the phone", "contacts: add Katie Bell",
        ])
        let merge = try #require(versions.first { $0.isMerge })
        #expect(versions.filter(\.isMerge).count == 1)
        #expect(merge.before == versions[2].after)
        let merged = String(decoding: try #require(merge.after), as: UTF8.self)
        #expect(merged.contains("Pilot") && merged.contains("Met at the match"))
        #expect(versions[0].before == merge.after)
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
