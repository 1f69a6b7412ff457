import Foundation
import Glibc
import PlainContactsSystem
import Testing

@testable import PlainContacts

/// A store that cannot be read is never answered as an empty one: `contacts` exits with the
/// documented status and names what it could not read.
@Suite struct ExitStatusTests {
    /// The tests run as root, whom permission bits do not stop; `setpriv` runs the command as
    /// the unprivileged `nobody` instead, so that the kernel really refuses with `EACCES`.
    static let canDropPrivileges = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// A store with two people whose folders and files anyone may read, except one person file.
    private func storeWithOnePrivateFile() throws -> (CLISandbox, unreadable: String) {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell"])
        try sandbox.add(["--first", "John", "--last", "Appleseed"])
        let names = try sandbox.storeFiles(in: "people")
        let unreadable = try #require(names.first { $0.hasPrefix("john-appleseed-") })
        let base = sandbox.store.path(percentEncoded: false)
        let manager = FileManager.default
        for folder in [sandbox.root.path(percentEncoded: false), base] {
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        }
        let enumerator = try #require(manager.enumerator(atPath: base))
        for case let relative as String in enumerator {
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: base + "/" + relative, isDirectory: &isFolder)
            try manager.setAttributes([.posixPermissions: isFolder.boolValue ? 0o755 : 0o644], ofItemAtPath: base + "/" + relative)
        }
        try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: base + "/people/" + unreadable)
        return (sandbox, unreadable)
    }

    /// Runs `contacts` as the user `nobody`.
    private func runAsNobody(_ sandbox: CLISandbox, _ arguments: [String]) throws -> CLIResult {
        let output = sandbox.root.appending(path: "nobody-stdout")
        let errors = sandbox.root.appending(path: "nobody-stderr")
        let status = try ChildProcess.run(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", try ContactsBinary.url().path(percentEncoded: false)]
                + arguments,
            environment: sandbox.baseEnvironment, output: output.path(percentEncoded: false),
            errors: errors.path(percentEncoded: false))
        return CLIResult(
            status: status, stdout: try String(contentsOf: output, encoding: .utf8),
            stderr: try String(contentsOf: errors, encoding: .utf8))
    }

    /// Writes the index again as it is, but dated past its two-second window for files that
    /// changed just before a scan: as a scan that long after the files last changed would have
    /// left it, vouching for every file, without waiting for the window to pass.
    private func dateIndexPastTheRacyWindow(of sandbox: CLISandbox) throws {
        let layout = StoreLayout(root: sandbox.store)
        let summaries = try #require(StoreIndex.load(layout, including: .summaries)?.allSummaries())
        try StoreIndex.write(
            summaries, peopleFolder: FileSignature.of(layout.peopleFolder.path),
            groupsFolder: FileSignature.of(layout.groupsFolder.path),
            builtAt: PersonCatalog.now() + PersonCatalog.racyWindow + 200_000_000, layout: layout)
    }

    @Test(.enabled(if: canDropPrivileges, "needs root and setpriv to run the command as another user"))
    func aPersonFileThatMayNotBeReadExits77NamingTheFile() throws {
        let (sandbox, unreadable) = try storeWithOnePrivateFile()
        let result = try runAsNobody(sandbox, ["list"])
        #expect(result.status == 77, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("people/" + unreadable))
    }

    /// The index, rebuilt after the file's mode changed, vouches for the file unread: the
    /// commands that then read it must report it, never leave the person out.
    @Test(.enabled(if: canDropPrivileges, "needs root and setpriv to run the command as another user"))
    func aPersonFileThatMayNotBeReadIsNeverTakenForAMissingPerson() throws {
        let (sandbox, _) = try storeWithOnePrivateFile()
        try sandbox.succeed(["list"])
        try dateIndexPastTheRacyWindow(of: sandbox)
        for command in [["show", "2"], ["show", "John"], ["list", "--json"], ["search", "john", "--json"], ["export"]] {
            let result = try runAsNobody(sandbox, command)
            #expect(result.status == 77, "\(command): \(result)")
            #expect(result.stdout.isEmpty, "\(command)")
        }
    }

    @Test(.enabled(if: canDropPrivileges, "needs root and setpriv to run the command as another user"))
    func aPeopleFolderThatMayNotBeListedExits77InsteadOfListingNoOne() throws {
        let (sandbox, _) = try storeWithOnePrivateFile()
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o711], ofItemAtPath: sandbox.storeFile("people").path(percentEncoded: false))
        let result = try runAsNobody(sandbox, ["list"])
        #expect(result.status == 77, "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test(.enabled(if: canDropPrivileges, "needs root and setpriv to run the command as another user"))
    func anUnreadableRecordOfHandedOutIDsStopsAnAddInsteadOfReusingAnID() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["Katie Bell"])
        let john = try sandbox.add(["John Appleseed"])
        try sandbox.succeed(["rm", john])
        // The store belongs to nobody, except the device's record of handed-out IDs.
        let manager = FileManager.default
        let base = sandbox.store.path(percentEncoded: false)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.root.path(percentEncoded: false))
        let enumerator = try #require(manager.enumerator(atPath: base))
        for relative in [""] + enumerator.compactMap({ $0 as? String }) {
            try manager.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: base + "/" + relative)
        }
        let ids = base + "/.contacts/ids.json"
        try manager.setAttributes([.ownerAccountID: 0, .groupOwnerAccountID: 0, .posixPermissions: 0o600], ofItemAtPath: ids)

        let result = try runAsNobody(sandbox, ["add", "Ann Lee"])
        #expect(result.status == 77, "\(result)")
        #expect(result.stdout != "\(john)\n")
        #expect(try sandbox.storeFiles(in: "people").count == 1)
    }

    @Test func aDamagedMemberFileIsAnErrorNotAMissingMember() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let ada = try sandbox.add(["Ada Lovelace"])
        let ben = try sandbox.add(["Ben Bee"])
        try sandbox.succeed(["group", "create", "Friends"])
        try sandbox.succeed(["group", "add", "Friends", ada, ben])
        let reference = try #require(try sandbox.json(ada)["ref"] as? String)
        let file = try #require(try sandbox.storeFiles(in: "people").first { $0.hasPrefix("ada-") })
        // Damaged in place, as an editor that writes over the file would leave it.
        let handle = try FileHandle(forWritingTo: sandbox.storeFile("people/\(file)"))
        try handle.write(contentsOf: Data("{ damaged".utf8))
        try handle.truncate(atOffset: 9)
        try handle.close()
        for command in [["group", "members", "Friends"], ["export", "--group", "Friends"], ["resolve", reference]] {
            let result = try sandbox.run(command)
            #expect(result.status == 65, "\(command): \(result)")
            #expect(result.stdout.isEmpty, "\(command)")
        }
    }

    @Test func aFileWhereThePeopleFolderShouldBeExits65InsteadOfListingNoOne() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell"])
        let people = sandbox.storeFile("people")
        try FileManager.default.removeItem(at: people)
        try Data("not a folder\n".utf8).write(to: people)
        for command in [["list"], ["search", "katie"], ["email", "katie"], ["doctor"]] {
            let result = try sandbox.run(command)
            #expect(result.status == 65, "\(command): \(result)")
            #expect(result.stdout.isEmpty)
        }
    }
}
