import Foundation
import Testing

@Suite struct GitWorkflowTests {
    /// An origin holding John Appleseed and the group Friends, and two clones set up with
    /// `contacts git-setup`.
    private func twoClones(_ repositories: GitRepositories) throws -> (a: URL, b: URL, john: String) {
        let seed = try repositories.makeRepository("seed")
        let john = try repositories.add(["--first", "John", "--last", "Appleseed"], in: seed)
        try repositories.succeed(["group", "create", "Friends"], in: seed)
        try repositories.commitAll("Add John and Friends", in: seed)
        let origin = try repositories.bareClone(seed, as: "origin.git")
        return (try repositories.clone(origin, as: "a"), try repositories.clone(origin, as: "b"), john)
    }

    @Test func twoClonesEditingOnePersonAndOneGroupMergeAndTheirSharedIDIsSettled() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let (a, b, john) = try twoClones(git)

        let katie = try git.add(["--first", "Katie", "--last", "Bell"], in: a)
        try git.succeed(["set", john, "jobTitle=Pilot"], in: a)
        try git.succeed(["group", "add", "Friends", john], in: a)
        let katieReference = try #require(try git.json(["show", katie, "--json"], in: a)["ref"] as? String)
        try git.commitAll("Clone A", in: a)

        let ann = try git.add(["--first", "Ann", "--last", "Lee"], in: b)
        #expect(ann == katie)  // both clones handed out the same new ID
        try git.succeed(["set", john, "note=Met at the airport"], in: b)
        try git.succeed(["group", "add", "Friends", ann], in: b)
        let annReference = try #require(try git.json(["show", ann, "--json"], in: b)["ref"] as? String)
        try git.commitAll("Clone B", in: b)

        try git.git(["push", "--quiet", "origin", "main"], in: a)
        try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: b)
        #expect(try git.git(["status", "--porcelain"], in: b).stdout.isEmpty)

        let merged = try git.json(["show", john, "--json"], in: b)
        #expect(merged["jobTitle"] as? String == "Pilot")
        #expect(merged["note"] as? String == "Met at the airport")
        let members = try git.succeed(["group", "members", "Friends"], in: b).lines
        #expect(Set(members.map { String($0.split(separator: "\t")[1]) }) == ["John Appleseed", "Ann Lee"])

        // Both clones gave record ID 2: settled alike on every clone when read, so no finding.
        let before = try git.git(["status", "--porcelain"], in: b).stdout
        try git.succeed(["doctor"], in: b)
        try git.succeed(["doctor", "--fix"], in: b)
        #expect(try git.git(["status", "--porcelain"], in: b).stdout == before)

        let ids = Set(try git.succeed(["list"], in: b).lines.map { String($0.split(separator: "\t")[0]) })
        #expect(ids.count == 3)
        for (reference, name) in [(katieReference, "Katie Bell"), (annReference, "Ann Lee")] {
            let resolved = try git.json(["resolve", reference, "--json"], in: b)
            #expect(resolved["compositeName"] as? String == name)
            let id = try #require(resolved["id"] as? Int)
            #expect(try git.json(["show", String(id), "--json"], in: b)["compositeName"] as? String == name)
        }
    }

    @Test func anUnrelatedSaveDoesNotRewriteAPersonWhoseIDAnotherCloneAlsoGave() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let (a, b, _) = try twoClones(git)

        let katie = try git.add(["Katie Bell"], in: a)
        try git.commitAll("Clone A adds Katie", in: a)
        let ann = try git.add(["Ann Lee"], in: b)
        #expect(ann == katie)  // both clones handed out the same new ID
        let annFile = try git.personFile(ann, in: b)
        try git.commitAll("Clone B adds Ann", in: b)
        try git.git(["push", "--quiet", "origin", "main"], in: a)
        try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: b)
        try git.git(["push", "--quiet", "origin", "main"], in: b)
        try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: a)

        // Both people list with distinct IDs, and a save of someone else writes only that person.
        let ids = try git.succeed(["list"], in: a).lines.map { String($0.split(separator: "\t")[0]) }
        #expect(Set(ids).count == 3)
        try git.add(["Kim Park"], in: a)
        let changed = try git.git(["status", "--porcelain", "--untracked-files=all", "--", "book/people"], in: a).lines
        #expect(changed.count == 1 && changed.allSatisfy { $0.contains("people/kim-park-") }, "changed: \(changed)")
        try git.commitAll("Clone A adds Kim", in: a)

        // B removes Ann meanwhile; pulling A's work is no modify/delete conflict.
        let annNow = try #require(try git.succeed(["list"], in: b).lines.first { $0.contains("Ann Lee") })
        try git.succeed(["rm", String(annNow.split(separator: "\t")[0])], in: b)
        try git.commitAll("Clone B removes Ann", in: b)
        try git.git(["push", "--quiet", "origin", "main"], in: a)
        let pull = try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: b, allowFailure: true)
        #expect(pull.status == 0, "pull failed: \(pull)")
        #expect(!FileManager.default.fileExists(atPath: git.store(b).appending(path: annFile).path(percentEncoded: false)))
    }

    @Test func aPropertyEditedDifferentlyInTwoClonesIsAConflictThatDoctorReports() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let (a, b, john) = try twoClones(git)
        try git.succeed(["set", john, "jobTitle=Pilot", "nickname=Johnny"], in: a)
        try git.commitAll("Pilot", in: a)
        try git.succeed(["set", john, "jobTitle=Sailor", "department=Harbor"], in: b)
        try git.commitAll("Sailor", in: b)
        try git.git(["push", "--quiet", "origin", "main"], in: a)

        let pull = try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: b, allowFailure: true)
        #expect(pull.status != 0)
        let file = try git.personFile(john, in: a)
        let text = try git.read(file, in: b)
        #expect(text.contains("<<<<<<< ours\n  \"jobTitle\": \"Sailor\",\n=======\n  \"jobTitle\": \"Pilot\",\n>>>>>>> theirs\n"))
        #expect(text.contains("\"nickname\": \"Johnny\""))
        #expect(text.contains("\"department\": \"Harbor\""))

        let doctor = try git.contacts(["doctor"], in: b)
        #expect(doctor.status == 65)
        #expect(doctor.stdout.contains("conflictMarkers"))
        #expect(try git.contacts(["show", john], in: b).status == 65)

        try git.git(["checkout", "--theirs", "--", "book/" + file], in: b)
        try git.succeed(["doctor"], in: b)
        #expect(try git.json(["show", john, "--json"], in: b)["jobTitle"] as? String == "Pilot")
    }

    @Test func aStoreMadeWithInitGitAndAddCommitClonesAsAStore() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let environment = try git.environment
        try sandbox.succeed(["init", "--git"], environment: environment)
        #expect(try git.git(["status", "--porcelain"], in: sandbox.store).stdout.isEmpty)
        try sandbox.succeed(["add", "--first", "Katie", "--last", "Bell", "--commit"], environment: environment)

        try git.git(["clone", "--quiet", sandbox.store.path(percentEncoded: false), "copy"], in: sandbox.root)
        var inCopy = environment
        inCopy["CONTACTS_DIR"] = git.folder("copy").path(percentEncoded: false)
        let listed = try sandbox.run(["list"], environment: inCopy)
        #expect(listed.status == 0)
        #expect(listed.lines.count == 1)
        try sandbox.succeed(["doctor"], environment: inCopy)
    }

    /// Both clones hold Friends with John and Ann.
    private func twoClonesWithFriends(_ git: GitRepositories) throws -> (a: URL, b: URL, john: String, ann: String) {
        let (a, b, john) = try twoClones(git)
        let ann = try git.add(["--first", "Ann", "--last", "Lee"], in: a)
        try git.succeed(["group", "add", "Friends", john, ann], in: a)
        try git.commitAll("Ann joins Friends", in: a)
        try git.git(["push", "--quiet", "origin", "main"], in: a)
        try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: b)
        return (a, b, john, ann)
    }

    private func memberNames(_ git: GitRepositories, in repository: URL) throws -> Set<String> {
        Set(try git.succeed(["group", "members", "Friends"], in: repository).lines.map { String($0.split(separator: "\t")[1]) })
    }

    @Test func aMemberRemovedInOneCloneStaysRemovedWhenAnotherAddsOne() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let (a, b, john, _) = try twoClonesWithFriends(git)
        try git.succeed(["group", "remove", "Friends", john], in: a)
        try git.commitAll("John leaves", in: a)
        try git.git(["push", "--quiet", "origin", "main"], in: a)
        let katie = try git.add(["--first", "Katie", "--last", "Bell"], in: b)
        try git.succeed(["group", "add", "Friends", katie], in: b)
        try git.commitAll("Katie joins", in: b)

        try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: b)
        #expect(try git.git(["status", "--porcelain"], in: b).stdout.isEmpty)
        #expect(try memberNames(git, in: b) == ["Ann Lee", "Katie Bell"])
    }

    /// Both clones removed John; one also added someone whose small file looks much like his.
    /// Git must not take that for a rename of John's file, which the other clone removed.
    @Test func aPersonRemovedInBothClonesBesideANewSimilarOneMergesCleanly() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let (a, b, john) = try twoClones(git)
        try git.succeed(["rm", john], in: a)
        _ = try git.add(["--first", "Joan", "--last", "Appleseed"], in: a)
        try git.commitAll("John leaves, Joan comes", in: a)
        try git.git(["push", "--quiet", "origin", "main"], in: a)
        try git.succeed(["rm", john], in: b)
        try git.commitAll("John leaves", in: b)

        try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: b)

        #expect(try git.git(["status", "--porcelain"], in: b).stdout.isEmpty)
        #expect(try git.succeed(["list"], in: b).lines.map { String($0.split(separator: "\t")[1]) } == ["Joan Appleseed"])
    }

    @Test func aGroupEmptiedInOneCloneMergesWithAMemberAddedInAnother() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let (a, b, john, ann) = try twoClonesWithFriends(git)
        try git.succeed(["group", "remove", "Friends", john, ann], in: a)
        try git.commitAll("Everyone leaves", in: a)
        try git.git(["push", "--quiet", "origin", "main"], in: a)
        let katie = try git.add(["--first", "Katie", "--last", "Bell"], in: b)
        try git.succeed(["group", "add", "Friends", katie], in: b)
        try git.commitAll("Katie joins", in: b)

        try git.git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: b)
        #expect(try git.git(["status", "--porcelain"], in: b).stdout.isEmpty)
        #expect(try memberNames(git, in: b) == ["Katie Bell"])
        try git.succeed(["doctor"], in: b)
    }

    @Test func gitDiffShowsReadableCardsOnceTheCloneIsSetUp() throws {
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        let (a, _, john) = try twoClones(git)
        try git.succeed(["set", john, "jobTitle=Pilot"], in: a)
        let diff = try git.git(["diff"], in: a).stdout
        #expect(diff.contains("\n+job title: Pilot\n"))
        #expect(diff.contains(" first name: John\n"))
    }
}
