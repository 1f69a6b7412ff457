import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Two clones of one store that sync with one account and pull each other's files, as a
/// person with two computers does: each way a change can travel (Git, the account, or both, in
/// either order) ends in one record per card and one entry per value, and writes nothing that
/// did not change.
///
/// The account is an in-memory server; a pull merges the two clones' record files three ways
/// against the files both last shared, with the store's merge driver, as Git does with
/// `contacts git-setup`.
@Suite struct TwoClonesSyncTests {
    private let server = InMemoryAddressBook()

    private static func card(_ uid: String, first: String, last: String, extra: [String] = []) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "N:\(last);\(first);;;", "FN:\(first) \(last)"] + extra + ["END:VCARD", ""])
            .joined(separator: "\n")
    }

    // MARK: The same card, downloaded by both clones

    @Test func aCardBothClonesDownloadHasOneFileNameAndOneRecordIDOnBoth() throws {
        let a = try Clone(), b = try Clone()
        let shared = try a.files()
        try b.receive(shared)
        server.put(
            Self.card("phone-1", first: "Pat", last: "Phone", extra: ["TEL;TYPE=CELL:+1 555 0101", "REV:20261126T101500Z"]),
            name: "phone-1.vcf")

        try a.sync(server)
        try b.sync(server)

        let aFiles = try a.files().filter { $0.key.hasPrefix("people/") }
        let bFiles = try b.files().filter { $0.key.hasPrefix("people/") }
        #expect(aFiles.count == 1)
        #expect(Set(aFiles.keys) == Set(bFiles.keys))
        // Dated by the card's REV, the two files are the same bytes.
        #expect(aFiles == bFiles)
        #expect(try a.person("Pat")?.modificationDate == Timestamp.parse("2026-11-26T10:15:00Z"))
        #expect(try a.person("Pat")?.recordID == b.person("Pat")?.recordID)
        let merge = try pull(into: b, from: a, base: shared)
        #expect(merge.conflicts.isEmpty)
        #expect(try b.people().count == 1)
    }

    @Test func aPersonOneCloneAddedAndTheOtherDownloadedHasOneFileName() throws {
        let a = try Clone(), b = try Clone()
        let shared = try a.files()
        try b.receive(shared)
        try a.add("Katie", "Bell", phone: "+44 20 7946 0001")
        try a.sync(server)

        try b.sync(server)

        let aKeys = Set(try a.files().keys), bKeys = Set(try b.files().keys)
        #expect(aKeys == bKeys)
        #expect(try a.person("Katie")?.recordID == b.person("Katie")?.recordID)
        // The UID the key gives anyway is not written: both files say the same.
        let path = try #require(bKeys.first { $0.hasPrefix("people/") })
        #expect(try !b.store.read(path).contains("\"uid\""))
        let mine = try PersonRecordCoder.decode(Data(contentsOf: a.store.path(path)), path: path)
        let theirs = try PersonRecordCoder.decode(Data(contentsOf: b.store.path(path)), path: path)
        #expect(RecordContent.same(mine.state, theirs.state))
        let merge = try pull(into: b, from: a, base: shared)
        #expect(merge.conflicts.isEmpty)
        #expect(try b.people().count == 1)
    }

    @Test func aGroupOneCloneCreatedAndTheOtherDownloadedHasOneFileAndNoStoredUID() throws {
        let a = try Clone(), b = try Clone()
        let shared = try a.files()
        try b.receive(shared)
        let book = try a.store.openBook()
        try book.add(Group(name: "Friends"))
        try book.save()
        try a.sync(server)

        try b.sync(server)

        let aGroups = try a.files().filter { $0.key.hasPrefix("groups/") }
        let bGroups = try b.files().filter { $0.key.hasPrefix("groups/") }
        #expect(Set(aGroups.keys) == Set(bGroups.keys))
        #expect(bGroups.values.allSatisfy { !String(decoding: $0, as: UTF8.self).contains("\"uid\"") })
        #expect(try pull(into: b, from: a, base: shared).conflicts.isEmpty)
        #expect(try b.store.openBook().allGroups().count == 1)
        // A sync after the pull rewrites nothing.
        let before = try b.files()
        try b.sync(server)
        #expect(try b.files() == before)
    }

    // MARK: The same value by two paths

    @Test func aValueThatReachesACloneByGitAndByTheAccountIsOneEntry() throws {
        let a = try Clone(), b = try Clone()
        try a.add("Katie", "Bell")
        try a.sync(server)
        try b.receive(try a.files())
        try b.sync(server)
        let shared = try a.files()

        try a.edit("Katie") { person in
            var phones = person.phones
            phones.add("+44 20 7946 0002", label: .work)
            person.phones = phones
        }
        try a.sync(server)
        #expect(try pull(into: b, from: a, base: shared).conflicts.isEmpty)
        try b.sync(server)

        #expect(try b.person("Katie")?.phones.values == ["+44 20 7946 0002"])
        #expect(server.texts.joined().components(separatedBy: "TEL;").count == 2)
        try a.sync(server)
        #expect(try a.person("Katie")?.phones.values == ["+44 20 7946 0002"])
    }

    @Test func aValueThePhoneAddedThatReachesACloneByBothPathsIsOneEntry() throws {
        let a = try Clone(), b = try Clone()
        let href = server.put(Self.card("phone-1", first: "Pat", last: "Phone"), name: "phone-1.vcf")
        try a.sync(server)
        try b.receive(try a.files())
        try b.sync(server)
        let shared = try a.files()
        // A number A added and removed again: A's next identifiers differ from B's.
        try a.edit("Pat") { person in
            var phones = person.phones
            phones.add("+1 555 0199", label: .home)
            person.phones = phones
        }
        try a.edit("Pat") { $0.phones = MultiValue() }

        server.put(Self.card("phone-1", first: "Pat", last: "Phone", extra: ["TEL;TYPE=WORK:+1 555 0102"]), name: "phone-1.vcf")
        try a.sync(server)
        try b.sync(server)
        #expect(try pull(into: b, from: a, base: shared).conflicts.isEmpty)

        #expect(try b.person("Pat")?.phones.values == ["+1 555 0102"])
        try b.sync(server)
        #expect(server.text(href)?.components(separatedBy: "TEL;").count == 2)
    }

    // MARK: Rewrites that are no change

    @Test func aCloneSyncingAPersonItPulledWritesNothing() throws {
        let a = try Clone(), b = try Clone()
        try a.add("Katie", "Bell")
        try a.sync(server)
        try b.receive(try a.files())
        let before = try b.files()

        let report = try b.sync(server)

        #expect(try b.files() == before)
        #expect(report.local.total == 0 && report.remote.total == 0)
    }

    @Test func aChangeThatReachesACloneByBothPathsLeavesTheSameBytes() throws {
        let a = try Clone(), b = try Clone()
        try a.add("Katie", "Bell")
        try a.sync(server)
        try b.receive(try a.files())
        try b.sync(server)
        let shared = try a.files()

        try a.edit("Katie") { $0.jobTitle = "Pilot" }
        try a.sync(server)
        try b.sync(server)
        let merge = try pull(into: b, from: a, base: shared)

        #expect(merge.conflicts.isEmpty)
        #expect(try b.files() == a.files())
    }

    @Test func aRewriteWithoutAChangeDoesNotUndoARemovalOnTheServer() throws {
        let a = try Clone()
        try a.add("Katie", "Bell", phone: "+44 20 7946 0001")
        try a.sync(server)
        let katie = try #require(server.href(containing: "N:Bell;Katie"))
        // Another clone's version of the same content: its own modification date, its own
        // numbering of the entries, a settled record ID, as a Git merge may bring.
        let path = try #require(try a.files().keys.first { $0.hasPrefix("people/") })
        var text = try a.store.read(path)
        text = text.replacingOccurrences(of: #""modified": "[^"]*""#, with: #""modified": "2030-01-01T00:00:00Z""#, options: .regularExpression)
        text = text.replacingOccurrences(of: #""id": 0,"#, with: #""id": 7,"#)
        text = text.replacingOccurrences(of: #""id": 1,"#, with: #""id": 1234567890,"#)
        text = text.replacingOccurrences(of: #""nextValueID": 1"#, with: #""nextValueID": 8"#)
        try a.store.write(text, to: path)
        #expect(try a.store.read(path).contains("2030-01-01"))

        server.remove(katie)
        let report = try a.sync(server)

        #expect(report.kept.isEmpty)
        #expect(try a.people().isEmpty)
        #expect(server.cards.isEmpty)
    }

    @Test func aStatusFromBeforeContentFingerprintsSeesNoChangeInUnchangedFiles() throws {
        let a = try Clone()
        // The status an earlier version wrote: each person's fingerprint was that of its file,
        // 16 hexadecimal digits. One in sixteen begins with the content fingerprints' mark, so
        // people are added until some of theirs do and some do not.
        var legacy: [String: String] = [:]
        var number = 0
        while Set(legacy.values.map { $0.hasPrefix(SyncRun.contentFingerprintMark) }).count < 2 {
            number += 1
            try #require(number <= 400)
            try a.add("Katie", "Bell \(number)")
            try a.sync(server)
            let book = try a.store.openBook()
            for key in book.personKeys {
                _ = try book.person(forKey: key)
                let saved = try #require(book.savedFingerprint(ofPersonWithKey: key))
                let digits = String(saved.value, radix: 16)
                legacy[key.rawValue] = String(repeating: "0", count: 16 - digits.count) + digits
            }
        }
        let statusURL = a.store.path(".contacts/sync/account/status")
        var status = try SyncStatusFile.load(from: statusURL.deletingLastPathComponent())
        for (uid, entry) in status.entries {
            status.entries[uid]?.localFingerprint = try #require(entry.key.flatMap { legacy[$0] })
            status.entries[uid]?.signature = nil
        }
        try status.save(in: statusURL.deletingLastPathComponent())
        let writes = server.writes

        let report = try a.sync(server)

        #expect(report.local.total == 0 && report.remote.total == 0)
        #expect(server.writes == writes)
        let upgraded = try SyncStatusFile.load(from: statusURL.deletingLastPathComponent())
        #expect(upgraded.entries.count == number)
        #expect(upgraded.entries.values.allSatisfy { !SyncRun.isFileFingerprint($0.localFingerprint) })
    }

    // MARK: Two records with one UID

    @Test func twoRecordsWithOneUIDAreSyncedAsOneAndRemovedTogether() throws {
        let a = try Clone()
        let text = Self.card("shared-1", first: "Katie", last: "Bell")
        try importTwice(text, into: a)
        #expect(try a.people().count == 2)
        let href = server.put(text, name: "shared-1.vcf")

        let first = try a.sync(server)
        #expect(first.warnings.count == 1)
        #expect(server.cards.count == 1)

        server.remove(href)
        try a.sync(server)
        #expect(try a.people().isEmpty)
        #expect(server.cards.isEmpty)
    }

    @Test func theDoctorJoinsTwoRecordsWithOneUIDIntoTheOneMadeFirst() throws {
        let a = try Clone()
        try importTwice(Self.card("shared-1", first: "Katie", last: "Bell", extra: ["TEL;TYPE=CELL:+1 555 0101"]), into: a)
        try a.edit("Katie") { $0.jobTitle = "Pilot" }
        let people = try a.people().sorted { x, y in
            let (p, q) = (x.creationDate ?? .distantFuture, y.creationDate ?? .distantFuture)
            return p != q ? p < q : (x.key?.rawValue ?? "") < (y.key?.rawValue ?? "")
        }
        let kept = try #require(people.first)

        let findings = try StoreDoctor(storeURL: a.store.storeURL).check()
        #expect(findings.map(\.kind) == [.duplicateUID])
        let fixed = try StoreDoctor(storeURL: a.store.storeURL).fix()

        #expect(fixed.allSatisfy { $0.fixed })
        let after = try a.people()
        #expect(after.count == 1)
        #expect(after.first?.recordID == kept.recordID)
        #expect(after.first?.jobTitle == "Pilot")
        #expect(after.first?.phones.values == ["+1 555 0101"])
        #expect(try StoreDoctor(storeURL: a.store.storeURL).check().isEmpty)
    }

    /// Two records made from one card, each its own file, as two clones of an earlier version
    /// could bring in; the second is made later.
    private func importTwice(_ text: String, into clone: Clone) throws {
        for _ in 0..<2 {
            let book = try clone.store.openBook()
            let person = Person()
            var state = try #require(VCardReader.parse(Data(text.utf8), source: "card.vcf").first.flatMap { card -> PersonState? in
                guard case .person(let imported) = try VCardImporter.map(card, source: "card.vcf") else { return nil }
                return imported.person.state
            })
            VCardRecordFields.setUID("shared-1", in: &state)
            person.state = state
            try book.add(person)
            try book.save()
        }
    }

    // MARK: A card met for the first time

    @Test func aCardMetForTheFirstTimeMergesAgainstTheVersionInTheFilesHistory() throws {
        let a = try Clone(), b = try Clone(), withoutHistory = try Clone()
        try a.add("Katie", "Bell", phone: "+44 20 7946 0001")
        try a.edit("Katie") { $0.jobTitle = "Pilot" }
        try a.sync(server)
        let path = try #require(try a.files().keys.first { $0.hasPrefix("people/") })
        let synced = try Data(contentsOf: a.store.path(path))
        // After the sync, A changes the title and removes the phone, and B pulls that
        // before it ever syncs.
        try a.edit("Katie") { person in
            person.jobTitle = "Captain"
            person.phones = MultiValue()
        }
        try b.receive(try a.files())
        try withoutHistory.receive(try a.files())

        #expect(try withoutHistory.sync(server).conflicts.count == 1)
        let report = try b.sync(server) { _ in [try Data(contentsOf: b.store.path(path)), synced] }

        #expect(report.conflicts.isEmpty)
        #expect(try b.person("Katie")?.jobTitle == "Captain")
        #expect(try b.person("Katie")?.phones.values == [])
        let card = try #require(server.texts.first)
        #expect(card.contains("TITLE:Captain") && !card.contains("TEL"))
    }

    // MARK: Pulling

    /// Pulls `source` into `clone`: each record file merged three ways against `base` with the
    /// store's merge driver, as Git does once `contacts git-setup` ran. A file removed on one
    /// side and changed on the other is a conflict, as in Git.
    @discardableResult
    private func pull(into clone: Clone, from source: Clone, base: [String: Data]) throws -> (conflicts: [String], written: Int) {
        let ours = try clone.files(), theirs = try source.files()
        var conflicts: [String] = []
        var written = 0
        for path in Set(ours.keys).union(theirs.keys).union(base.keys).sorted() {
            let (b, o, t) = (base[path], ours[path], theirs[path])
            let result: Data?
            if o == t || t == b {
                continue
            } else if o == b {
                result = t
            } else if let o, let t {
                let merged = try RecordFileMerger.merge(base: b, ours: o, theirs: t, path: path)
                conflicts += merged.conflicts.map { "\(path): \($0)" }
                result = merged.merged
            } else {
                conflicts.append("\(path): removed on one side, changed on the other")
                continue
            }
            let url = clone.store.path(path)
            if let result {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try result.write(to: url)
            } else {
                try FileManager.default.removeItem(at: url)
            }
            written += 1
        }
        return (conflicts, written)
    }
}

/// One clone of the store, with its own sync status.
private struct Clone {
    let store: TemporaryStore

    init() throws {
        store = try TemporaryStore()
        _ = try store.makeBook()
    }

    @discardableResult
    func sync(_ server: InMemoryAddressBook, dryRun: Bool = false, history: ((RecordKey) throws -> [Data])? = nil) throws -> SyncReport {
        var sync = ContactSync(
            book: try AddressBook(url: store.storeURL), remote: server, statusFolder: store.path(".contacts/sync/account"))
        sync.options.dryRun = dryRun
        if let history { sync.options.history = { (try? history($0)) ?? [] } }
        return try sync.run()
    }

    func add(_ first: String, _ last: String, phone: String? = nil) throws {
        let book = try store.openBook()
        let person = makePerson(first, last)
        if let phone { person.phones = MultiValue([(phone, .mobile)]) }
        try book.add(person)
        try book.save()
    }

    func edit(_ first: String, _ change: (Person) -> Void) throws {
        let book = try store.openBook()
        let person = try #require(book.allPeople().first { $0.firstName == first })
        change(person)
        try book.save()
    }

    func people() throws -> [Person] { try store.openBook().allPeople() }

    func person(_ first: String) throws -> Person? { try people().first { $0.firstName == first } }

    /// Every file of the store outside `.contacts`, by path.
    func files() throws -> [String: Data] {
        var result: [String: Data] = [:]
        let root = store.storeURL.path(percentEncoded: false)
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            if path == ".contacts" {
                enumerator?.skipDescendants()
                continue
            }
            var isFolder: ObjCBool = false
            let full = root + "/" + path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            result[path] = try Data(contentsOf: URL(filePath: full))
        }
        return result
    }

    /// Makes the store's files exactly these (a clone, or a fast-forward pull).
    func receive(_ files: [String: Data]) throws {
        for (path, _) in try self.files() where files[path] == nil {
            try FileManager.default.removeItem(at: store.path(path))
        }
        for (path, data) in files {
            let url = store.path(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }
}
