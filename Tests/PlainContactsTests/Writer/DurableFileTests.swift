import DAVTestSupport
import Foundation
import Glibc
import Testing

@testable import PlainContacts

@Suite("DurableFile")
struct DurableFileTests {
    @Test func writeCreatesAPrivateFileWhateverTheUmask() throws {
        let fixture = try WriterFixture()
        try withUmask(0) {
            try DurableFile.write(Data("{}\n".utf8), to: fixture.url("store.json"))
        }
        #expect(fixture.text(at: "store.json") == "{}\n")
        #expect(try fixture.permissions(of: "store.json") == 0o600)
        #expect(fixture.files() == ["store.json"])
    }

    @Test func writeReplacesTheOldBytesAndLeavesNoTemporaryFile() throws {
        let fixture = try WriterFixture()
        try fixture.put("a much longer old content than the new one", at: "store.json")
        try DurableFile.write(Data("new".utf8), to: fixture.url("store.json"))
        #expect(fixture.text(at: "store.json") == "new")
        #expect(fixture.files() == ["store.json"])
    }

    @Test func writeOfEmptyDataCreatesAnEmptyFile() throws {
        let fixture = try WriterFixture()
        try DurableFile.write(Data(), to: fixture.url("empty"))
        #expect(fixture.text(at: "empty") == "")
    }

    @Test func writeIntoAMissingFolderFailsWithIOAndLeavesNothing() throws {
        let fixture = try WriterFixture()
        let error = #expect(throws: ContactsError.self) {
            try DurableFile.write(Data("x".utf8), to: fixture.url("missing/store.json"))
        }
        #expect(error?.code == .io)
        #expect(fixture.files().isEmpty)
    }

    @Test func failedRenameRemovesTheTemporaryFileAndKeepsTheTarget() throws {
        let fixture = try WriterFixture()
        try fixture.put("inside", at: "settings/keep.json")
        let error = #expect(throws: ContactsError.self) {
            try DurableFile.write(Data("x".utf8), to: fixture.url("settings"))
        }
        #expect(error?.code == .io)
        #expect(fixture.files() == ["settings/keep.json"])
        #expect(fixture.text(at: "settings/keep.json") == "inside")
    }

    @Test func writeIfChangedSkipsIdenticalBytes() throws {
        let fixture = try WriterFixture()
        let url = fixture.url("store.json")
        #expect(try DurableFile.writeIfChanged(Data("same".utf8), to: url))
        let inode = try fixture.inode(of: "store.json")
        #expect(try !DurableFile.writeIfChanged(Data("same".utf8), to: url))
        #expect(try fixture.inode(of: "store.json") == inode)
    }

    @Test func writeIfChangedWritesDifferentBytes() throws {
        let fixture = try WriterFixture()
        try fixture.put("old", at: "store.json")
        #expect(try DurableFile.writeIfChanged(Data("new".utf8), to: fixture.url("store.json")))
        #expect(fixture.text(at: "store.json") == "new")
        #expect(try DurableFile.writeIfChanged(Data("newer and longer".utf8), to: fixture.url("store.json")))
        #expect(fixture.text(at: "store.json") == "newer and longer")
    }

    @Test func removeLeftoversRemovesOnlyTheFilesTemporaryCopies() throws {
        let fixture = try WriterFixture()
        try fixture.put("{}", at: "ids.json")
        try fixture.put("half", at: ".ids.json.tmp-0123456789abcdef")
        try fixture.put("other", at: ".store.json.tmp-0123456789abcdef")
        try DurableFile.removeLeftovers(of: fixture.url("ids.json"))
        #expect(fixture.files() == [".store.json.tmp-0123456789abcdef", "ids.json"])
    }
}

@Suite struct HandedOutIDsTests {
    @Test func aSaveClearsTheTemporaryFileAKilledSaveLeftBesideIDs() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        let leftover = store.path(".contacts/.ids.json.tmp-0123456789abcdef")
        try Data("{\"person\": 1".utf8).write(to: leftover)
        try book.add(makePerson("John", "Appleseed"))
        try book.save()
        #expect(!FileManager.default.fileExists(atPath: leftover.path(percentEncoded: false)))
        #expect(FileManager.default.fileExists(atPath: store.path(".contacts/ids.json").path(percentEncoded: false)))
    }

    @Test func writeHonoursTheModeTheCallerGives() throws {
        let fixture = try WriterFixture()
        try withUmask(0o077) {
            try DurableFile.write(Data("x".utf8), to: fixture.url("export.vcf"), mode: 0o644)
        }
        #expect(try fixture.permissions(of: "export.vcf") == 0o644)
    }

    @Test func removeLeftoversAlsoRemovesTheNamesEarlierVersionsUsed() throws {
        let fixture = try WriterFixture()
        try fixture.put("half", at: ".access.json.k3j9x0w2q7ab.tmp")
        try fixture.put("{}", at: "access.json")
        try DurableFile.removeLeftovers(of: fixture.url("access.json"))
        #expect(fixture.files() == ["access.json"])
    }

    @Test func removeDeletesTheFileAndAcceptsAMissingOne() throws {
        let fixture = try WriterFixture()
        try fixture.put("{}", at: "access.json")
        try DurableFile.remove(fixture.url("access.json"))
        try DurableFile.remove(fixture.url("access.json"))
        #expect(fixture.files().isEmpty)
    }

}
