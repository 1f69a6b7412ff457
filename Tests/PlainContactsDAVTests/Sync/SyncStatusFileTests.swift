import DAVTestSupport
import Foundation
import PlainContactsSystem
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct SyncStatusFileTests {
    @Test func theStatusRoundTripsAndKeepsUnknownKeys() throws {
        let folder = try TemporaryStore()
        var status = SyncStatusFile()
        status.url = "https://dav.example.com/me/contacts/"
        status.syncToken = "token-1"
        status.entries["u-1"] = .init(kind: .person, href: "/me/contacts/u-1.vcf", etag: "\"1\"", localFingerprint: "00ff")
        var odd = SyncStatusFile.Entry(kind: .group, href: "/me/contacts/g.vcf", etag: "W/\"2\"", localFingerprint: "0a")
        odd.key = "friends-abc"
        odd.signature = FileSignature(inode: 7, size: 10, modified: 1_764_043_200_123_456_789, changed: 3)
        status.entries["odd\tuid\\with\nbreaks"] = odd
        status.unknownLines = ["later\tkept"]
        try status.save(in: folder.url.appending(path: "sync"))

        let read = try SyncStatusFile.load(from: folder.url.appending(path: "sync"))
        #expect(read == status)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.url.appending(path: "sync/status").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aBrokenOrNewerStatusIsRefusedWithItsCode() throws {
        #expect { try SyncStatusFile(data: Data("[1]".utf8), path: "status") } throws: {
            ($0 as? ContactsError)?.code == .malformedFile
        }
        #expect { try SyncStatusFile(data: Data("plaincontacts-sync-status\t1\ncard\tu\tperson\n".utf8), path: "status") } throws: {
            ($0 as? ContactsError)?.code == .malformedFile
        }
        #expect { try SyncStatusFile(data: Data("plaincontacts-sync-status\t9\n".utf8), path: "status") } throws: {
            ($0 as? ContactsError)?.code == .unsupportedFormatVersion
        }
    }

    @Test func theHeadGivesTheTokenBeforeTheCardsAreRead() throws {
        let folder = try TemporaryStore()
        var status = SyncStatusFile()
        status.url = "https://dav.example.com/me/contacts/"
        status.syncToken = "token\twith a tab"
        status.ctag = "ctag-1"
        status.entries["u-1"] = .init(kind: .person, href: "/me/contacts/u-1.vcf", etag: "\"1\"", localFingerprint: "00ff")
        try status.save(in: folder.url)

        let stored = try #require(try SyncStatusFile.Stored.read(from: folder.url))
        let head = try #require(stored.head)
        #expect(head.url == status.url)
        #expect(head.syncToken == status.syncToken)
        #expect(try SyncStatusFile(stored) == status)

        var first = SyncStatusFile()
        first.url = "https://dav.example.com/me/contacts/"
        let withoutToken = SyncStatusFile.Stored(data: first.data, path: "status")
        #expect(withoutToken.head?.url == first.url)
        #expect(withoutToken.head?.syncToken == nil)

        for bytes in ["[1]", "plaincontacts-sync-status\t9\nsyncToken\tt\n", ""] {
            #expect(SyncStatusFile.Stored(data: Data(bytes.utf8), path: "status").head == nil)
        }
        #expect(try SyncStatusFile.Stored.read(from: folder.url.appending(path: "none")) == nil)
    }

    @Test func lastSyncedVersionsAreKeptPerUID() throws {
        let folder = try TemporaryStore()
        var bases = SyncBaseFile()
        let person = Person()
        person.firstName = "John"
        person.note = "line one\nline two"
        bases.setPerson(person.state, id: RecordID(7), for: "u-1")
        bases.setGroup(GroupCard(name: "Team", uid: "g-1", members: ["u-1"]), for: "g-1")
        try bases.save(in: folder.url)

        var read = try SyncBaseFile.load(from: folder.url)
        #expect(read.person("u-1")?.values[.note] == .string("line one\nline two"))
        #expect(read.group("g-1")?.members == ["u-1"])
        read.keepOnly(["g-1"])
        #expect(read.person("u-1") == nil)
    }

    @Test func laterSyncsAppendTheirVersionsAndATornLineLosesNothingElse() throws {
        let folder = try TemporaryStore()
        func state(_ note: String) -> PersonState {
            let person = Person()
            person.note = note
            return person.state
        }
        var bases = SyncBaseFile()
        for index in 1...3 { bases.setPerson(state("v1"), id: RecordID(Int32(index)), for: "u-\(index)") }
        try bases.save(in: folder.url)
        let file = folder.url.appending(path: SyncBaseFile.fileName)
        let first = try Data(contentsOf: file)

        // A crash left half a line at the end.
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("0123abc {\"note".utf8))
        try handle.close()

        var next = try SyncBaseFile.load(from: folder.url)
        next.setPerson(state("v2"), id: RecordID(1), for: "u-1")
        next.remove("u-2")
        try next.save(in: folder.url)

        let written = try Data(contentsOf: file)
        #expect(written.starts(with: first))
        var read = try SyncBaseFile.load(from: folder.url)
        #expect(read.person("u-1")?.values[.note] == .string("v2"))
        #expect(read.person("u-2") == nil)
        #expect(read.person("u-3")?.values[.note] == .string("v1"))
    }
}
