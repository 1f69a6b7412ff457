import Foundation
import Glibc
import TestTags
import Testing

@testable import PlainContacts

@Suite("StoreTransaction")
struct StoreTransactionTests {
    private struct DiskFailure: Error {}

    // MARK: - A small store before and after one commit

    private static let oldFiles = [
        "people/a.json": "old a",
        "people/b.json": "old b",
        "groups/g.json": "old g",
        "groups/g.members": "old members",
        "store.json": "old manifest",
    ]

    private static let newFiles = [
        "people/a.json": "new a",
        "people/c.json": "new c",
        "groups/g.json": "old g",
        "groups/g.members": "new members",
        "store.json": "new manifest",
        "archive/2024/x.json": "new x",
    ]

    private static let changes: [FileChange] = [
        .write(Data("new a".utf8), to: "people/a.json"),
        .delete("people/b.json"),
        .write(Data("new c".utf8), to: "people/c.json"),
        .write(Data("new members".utf8), to: "groups/g.members"),
        .write(Data("new manifest".utf8), to: "store.json"),
        .write(Data("new x".utf8), to: "archive/2024/x.json"),
        .delete("people/never-existed.json"),
    ]

    private static let uncommittedPoints = FaultInjection.Point.allCases.filter { !$0.isCommitted }
    private static let committedPoints = FaultInjection.Point.allCases.filter(\.isCommitted)

    private func seed(_ fixture: WriterFixture, with files: [String: String] = oldFiles) throws {
        for (path, text) in files {
            try fixture.put(text, at: path)
        }
    }

    /// The store's files outside `.contacts/`, with their contents.
    private func contents(of fixture: WriterFixture) -> [String: String] {
        var result: [String: String] = [:]
        for path in fixture.files() where !path.hasPrefix(".contacts/") {
            result[path] = fixture.text(at: path)
        }
        return result
    }

    /// Checks that no journal, temporary journal or staged file is left.
    private func expectNoLeftovers(in fixture: WriterFixture, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            fixture.files(under: ".contacts").allSatisfy { $0 == ".contacts/lock" },
            sourceLocation: sourceLocation)
        #expect(!fixture.exists(".contacts/staging"), sourceLocation: sourceLocation)
        #expect(!StoreTransaction.needsRecovery(storeRoot: fixture.root), sourceLocation: sourceLocation)
    }

    // MARK: - Commit

    @Test func commitAppliesWritesAndDeletes() throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        try StoreTransaction.commit(Self.changes, storeRoot: fixture.root)
        #expect(contents(of: fixture) == Self.newFiles)
        expectNoLeftovers(in: fixture)
    }

    @Test func commitCreatesFoldersAndFilesPrivatelyWhateverTheUmask() throws {
        let fixture = try WriterFixture()
        try withUmask(0) {
            try StoreTransaction.commit(
                [.write(Data("x".utf8), to: "people/x.json"), .write(Data("y".utf8), to: "a/b/y.json")],
                storeRoot: fixture.root)
        }
        for folder in ["people", "a", "a/b", ".contacts"] {
            #expect(try fixture.permissions(of: folder) == 0o700)
        }
        #expect(try fixture.permissions(of: "people/x.json") == 0o600)
        #expect(try fixture.permissions(of: "a/b/y.json") == 0o600)
    }

    @Test func stagedFilesAndJournalArePrivateWhateverTheUmask() throws {
        let fixture = try WriterFixture()
        withUmask(0) {
            #expect(throws: FaultInjection.SimulatedCrash.self) {
                try StoreTransaction.commit(
                    Self.changes, storeRoot: fixture.root, faultInjection: .crashing(at: .afterJournalTemp))
            }
        }
        let staged = fixture.files(under: ".contacts/staging")
        #expect(staged.count == 5)
        for file in staged + [".contacts/journal.tmp"] {
            #expect(try fixture.permissions(of: file) == 0o600)
        }
        let transactionFolder = PosixFileSystem.parent(of: try #require(staged.first))
        for folder in [".contacts", ".contacts/staging", transactionFolder] {
            #expect(try fixture.permissions(of: folder) == 0o700)
        }
    }

    @Test func emptyCommitChangesNothing() throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        try StoreTransaction.commit([], storeRoot: fixture.root)
        #expect(contents(of: fixture) == Self.oldFiles)
        #expect(!fixture.exists(".contacts/journal"))
    }

    @Test(arguments: ["", "/etc/passwd", "../outside.json", "people/../../x", "people//x.json", "./x.json",
                      "people/", ".contacts/journal", ".contacts", "people/\u{0}.json"])
    func commitRejectsPathsOutsideTheStoreFiles(path: String) throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        let error = #expect(throws: ContactsError.self) {
            try StoreTransaction.commit(
                [.write(Data("a".utf8), to: "people/a.json"), .write(Data("evil".utf8), to: path)],
                storeRoot: fixture.root)
        }
        #expect(error?.code == .invalidValue)
        #expect(contents(of: fixture) == Self.oldFiles)
    }

    @Test func commitRejectsAFileChangedTwice() throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        let error = #expect(throws: ContactsError.self) {
            try StoreTransaction.commit(
                [.write(Data("x".utf8), to: "people/a.json"), .delete("people/a.json")], storeRoot: fixture.root)
        }
        #expect(error?.code == .invalidValue)
        #expect(contents(of: fixture) == Self.oldFiles)
    }

    @Test func commitRejectsAFileWhereAnotherOfItsFilesNeedsAFolder() throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        let error = #expect(throws: ContactsError.self) {
            try StoreTransaction.commit(
                [.write(Data("x".utf8), to: "notes/a/b.json"), .write(Data("y".utf8), to: "notes")],
                storeRoot: fixture.root)
        }
        #expect(error?.code == .invalidValue)
        #expect(contents(of: fixture) == Self.oldFiles)
    }

    @Test(arguments: [FileChange.write(Data("x".utf8), to: "people/a.json"), .delete("people/a.json")])
    func commitFailsWithoutChangesWhenAFolderStandsWhereAFileGoes(blocked: FileChange) throws {
        let fixture = try WriterFixture()
        try seed(fixture, with: ["people/a.json/inside.json": "inside", "groups/g.json": "old g"])
        let error = #expect(throws: ContactsError.self) {
            try StoreTransaction.commit(
                [.write(Data("new g".utf8), to: "groups/g.json"), blocked], storeRoot: fixture.root)
        }
        #expect(error?.code == .io)
        #expect(contents(of: fixture) == ["people/a.json/inside.json": "inside", "groups/g.json": "old g"])
        expectNoLeftovers(in: fixture)
    }

    @Test func commitKeepsAnyUTF8FileName() throws {
        let fixture = try WriterFixture()
        let names = [
            "people/zoë-o’brien-ß7.json", "people/名前.json", "people/line\nbreak.json", "people/space d.json",
        ]
        try StoreTransaction.commit(names.map { .write(Data($0.utf8), to: $0) }, storeRoot: fixture.root)
        for name in names {
            #expect(fixture.text(at: name) == name)
        }
    }

    @Test(.tags(.slow), .slowTestsEnabled) func largeCommitOfFiveThousandFilesIsApplied() throws {
        let fixture = try WriterFixture()
        let count = 5_000
        let changes = (0..<count).map { FileChange.write(Data("person \($0)\n".utf8), to: "people/p\($0).json") }
        try StoreTransaction.commit(changes, storeRoot: fixture.root)
        let files = fixture.files(under: "people")
        #expect(files.count == count)
        #expect(fixture.text(at: "people/p4321.json") == "person 4321\n")
        expectNoLeftovers(in: fixture)

        let deletions = (0..<count).filter { $0 % 2 == 0 }.map { FileChange.delete("people/p\($0).json") }
        try StoreTransaction.commit(deletions, storeRoot: fixture.root)
        #expect(fixture.files(under: "people").count == count / 2)
    }

    // MARK: - Failures and crashes

    @Test(arguments: uncommittedPoints)
    func failureBeforeTheCommitPointLeavesTheOldFiles(point: FaultInjection.Point) throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(throws: DiskFailure.self) {
            try StoreTransaction.commit(
                Self.changes, storeRoot: fixture.root, faultInjection: .throwing(DiskFailure(), at: point))
        }
        #expect(contents(of: fixture) == Self.oldFiles)
        expectNoLeftovers(in: fixture)
    }

    @Test(arguments: committedPoints)
    func failureAfterTheCommitPointIsCompletedByRecovery(point: FaultInjection.Point) throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(throws: DiskFailure.self) {
            try StoreTransaction.commit(
                Self.changes, storeRoot: fixture.root, faultInjection: .throwing(DiskFailure(), at: point))
        }
        #expect(StoreTransaction.needsRecovery(storeRoot: fixture.root))
        try StoreTransaction.recover(storeRoot: fixture.root)
        #expect(contents(of: fixture) == Self.newFiles)
        expectNoLeftovers(in: fixture)
    }

    @Test(arguments: uncommittedPoints)
    func crashBeforeTheCommitPointIsRolledBack(point: FaultInjection.Point) throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(throws: FaultInjection.SimulatedCrash(point: point)) {
            try StoreTransaction.commit(Self.changes, storeRoot: fixture.root, faultInjection: .crashing(at: point))
        }
        #expect(StoreTransaction.needsRecovery(storeRoot: fixture.root))
        #expect(try StoreTransaction.recover(storeRoot: fixture.root) == .rolledBack)
        #expect(contents(of: fixture) == Self.oldFiles)
        expectNoLeftovers(in: fixture)
    }

    @Test(arguments: committedPoints)
    func crashAfterTheCommitPointIsRolledForward(point: FaultInjection.Point) throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(throws: FaultInjection.SimulatedCrash(point: point)) {
            try StoreTransaction.commit(Self.changes, storeRoot: fixture.root, faultInjection: .crashing(at: point))
        }
        #expect(StoreTransaction.needsRecovery(storeRoot: fixture.root))
        let outcome = try StoreTransaction.recover(storeRoot: fixture.root)
        #expect(outcome == (point == .afterJournalRemoved ? .rolledBack : .rolledForward))
        #expect(contents(of: fixture) == Self.newFiles)
        expectNoLeftovers(in: fixture)
    }

    @Test(arguments: [1, 10, 30])
    func tornJournalIsRolledBack(bytesLost: Int) throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(throws: FaultInjection.SimulatedCrash.self) {
            try StoreTransaction.commit(
                Self.changes, storeRoot: fixture.root, faultInjection: .crashing(at: .afterJournal))
        }
        let journal = fixture.url(".contacts/journal")
        let bytes = try Data(contentsOf: journal)
        try bytes.dropLast(bytesLost).write(to: journal)
        #expect(try StoreTransaction.recover(storeRoot: fixture.root) == .rolledBack)
        #expect(contents(of: fixture) == Self.oldFiles)
        expectNoLeftovers(in: fixture)
    }

    @Test func damagedJournalIsRolledBack() throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(throws: FaultInjection.SimulatedCrash.self) {
            try StoreTransaction.commit(
                Self.changes, storeRoot: fixture.root, faultInjection: .crashing(at: .afterJournal))
        }
        let journal = fixture.url(".contacts/journal")
        var bytes = try Data(contentsOf: journal)
        let middle = bytes.count / 2
        bytes[middle] ^= 0x20
        try bytes.write(to: journal)
        #expect(try StoreTransaction.recover(storeRoot: fixture.root) == .rolledBack)
        #expect(contents(of: fixture) == Self.oldFiles)
        expectNoLeftovers(in: fixture)
    }

    @Test func recoveryOfACleanStoreDoesNothing() throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(!StoreTransaction.needsRecovery(storeRoot: fixture.root))
        #expect(try StoreTransaction.recover(storeRoot: fixture.root) == .nothingToRecover)
        #expect(contents(of: fixture) == Self.oldFiles)
    }

    @Test func recoveryRunTwiceChangesNothingTheSecondTime() throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(throws: FaultInjection.SimulatedCrash.self) {
            try StoreTransaction.commit(
                Self.changes, storeRoot: fixture.root, faultInjection: .crashing(at: .afterSomeRenames))
        }
        #expect(try StoreTransaction.recover(storeRoot: fixture.root) == .rolledForward)
        #expect(try StoreTransaction.recover(storeRoot: fixture.root) == .nothingToRecover)
        #expect(contents(of: fixture) == Self.newFiles)
    }

    @Test func commitFinishesAnInterruptedCommitBeforeItsOwn() throws {
        let fixture = try WriterFixture()
        try seed(fixture)
        #expect(throws: FaultInjection.SimulatedCrash.self) {
            try StoreTransaction.commit(
                Self.changes, storeRoot: fixture.root, faultInjection: .crashing(at: .afterSomeRenames))
        }
        try StoreTransaction.commit([.write(Data("newer c".utf8), to: "people/c.json")], storeRoot: fixture.root)
        var expected = Self.newFiles
        expected["people/c.json"] = "newer c"
        #expect(contents(of: fixture) == expected)
        expectNoLeftovers(in: fixture)
    }

    // MARK: - Journal format

    @Test func journalRoundTripsAnyUTF8Path() throws {
        let journal = TransactionJournal(
            transactionID: "0123456789abcdef",
            operations: [
                .write(staged: 0, target: "people/zoë.json"),
                .delete(target: "people/line\nbreak w 3 4.json"),
                .write(staged: 1, target: "groups/名前.members"),
            ])
        #expect(TransactionJournal(decoding: journal.encoded()) == journal)
    }

    @Test func everyTruncationOfAJournalIsRejected() throws {
        let journal = TransactionJournal(
            transactionID: "ab12",
            operations: [.write(staged: 0, target: "people/a.json"), .delete(target: "groups/b.json")])
        let bytes = journal.encoded()
        for length in 0..<bytes.count {
            #expect(TransactionJournal(decoding: bytes.prefix(length)) == nil, "prefix of \(length) bytes")
        }
    }
}
