import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVCollectionTests {
    @Test func concurrentRequestsLoseNoWrite() async throws {
        let server = try CardDAVTestStore()
        for index in 0..<10 { try server.addPerson("Person", "\(index)") }
        let service = server.service
        let path = server.collectionPath
        let statuses = await withTaskGroup(of: [Int].self) { group in
            for worker in 0..<6 {
                group.addTask {
                    var statuses: [Int] = []
                    for index in 0..<8 {
                        let name = "w\(worker)-\(index).vcf"
                        let card = CardDAVTestStore.card(uid: "w\(worker)-\(index)", first: "Worker\(worker)", last: "\(index)")
                        let put = service.respond(
                            to: HTTPServerRequest(
                                method: "PUT", target: path + name, headers: ["Content-Type": "text/vcard"], body: Data(card.utf8)),
                            user: nil)
                        statuses.append(put.status)
                        let propfind = service.respond(
                            to: HTTPServerRequest(
                                method: "PROPFIND", target: path, headers: ["Depth": "1"],
                                body: Data("<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop></d:propfind>".utf8)),
                            user: nil)
                        statuses.append(propfind.status)
                        let get = service.respond(to: HTTPServerRequest(method: "GET", target: path + name), user: nil)
                        statuses.append(get.status)
                    }
                    return statuses
                }
            }
            var all: [Int] = []
            for await statuses in group { all += statuses }
            return all
        }
        #expect(statuses.allSatisfy { [200, 201, 207].contains($0) })
        let etags = try server.etags()
        #expect(etags.count == 10 + 6 * 8)
        let people = try server.store.openBook().allPeople()
        #expect(people.count == 10 + 6 * 8)
        #expect(Set(people.map(\.recordID)).count == people.count)
    }

    @Test func theStateFileReadsBackWhatWasWrittenAndIgnoresATornLine() throws {
        var state = CardDAVStateFile()
        let key = try #require(RecordKey(rawValue: "katie-bell-abc234"))
        let signature = FileSignature(inode: 7, size: 412, modified: 1_764_043_200_123_456_789, changed: 1_764_043_200_123_456_789)
        let entry = CardDAVEntry(
            record: .init(kind: .person, key: key), name: "tab\tname.vcf", uid: "u\\id", etag: "3f2a", length: 412,
            modified: signature.modified, signatures: [signature], sequence: 4)
        let group = CardDAVEntry(
            record: .init(kind: .group, key: key), name: "g.vcf", uid: "g", etag: "9e", length: 90, modified: 1,
            signatures: [signature, nil], sequence: 5)
        state.entries = [entry.name: entry, group.name: group]
        state.removed = ["gone.vcf": 3]
        var data = state.data
        data.append(contentsOf: CardDAVStateFile.line(removed: "g.vcf", sequence: 6))
        data.append(contentsOf: Array("card\tpartial".utf8))
        let read = try #require(CardDAVStateFile(data: data))
        #expect(read.instance == state.instance)
        #expect(read.entries == [entry.name: entry])
        #expect(read.removed == ["gone.vcf": 3, "g.vcf": 6])
        #expect(read.sequence == 6)
        #expect(CardDAVStateFile(data: Data("plaincontacts-carddav\t99\n".utf8)) == nil)
        #expect(CardDAVStateFile(data: Data()) == nil)
    }

    @Test func aFailedRequestLeavesTheStateAsItWas() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "k")
        _ = try server.etags()
        let before = try server.snapshot()
        server.put("k.vcf", "BEGIN:VCARD\r\nbroken")
        server.put("n.vcf", CardDAVTestStore.card(uid: "n", first: "N", last: "N"), headers: [("If-Match", "\"x\"")])
        server.send("DELETE", server.cardPath("k.vcf"), headers: [("If-Match", "\"x\"")])
        server.send("PROPFIND", server.collectionPath, headers: [("Depth", "1")], body: "<broken")
        #expect(try server.snapshot() == before)
    }

    @Test func aFileChangedJustNowIsReadAgainNextTime() throws {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        let fresh = FileSignature(inode: 9, size: 100, modified: now, changed: now)
        let settled = FileSignature(inode: 9, size: 100, modified: now - 10_000_000_000, changed: now - 10_000_000_000)
        #expect(CardDAVCardMaker.trusted(fresh) == CardDAVCardMaker.racySignature)
        #expect(CardDAVCardMaker.trusted(settled) == settled)
        #expect(CardDAVCardMaker.trusted(nil) == nil)
        // A card made from a file saved just now records no signature a file could have.
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "k")
        let card = try #require(try server.service.collection.card(named: "k.vcf"))
        #expect(card.entry.signatures == [CardDAVCardMaker.racySignature])
    }

    @Test func removalsBeyondTheLimitAreForgottenAndOlderTokensRefused() throws {
        let server = try CardDAVTestStore()
        for index in 0..<4 { server.put("\(index).vcf", CardDAVTestStore.card(uid: "\(index)", first: "P", last: "\(index)")) }
        let collection = CardDAVCollection(layout: StoreLayout(root: server.store.storeURL), maximumRemovals: 2)
        let before = try collection.listing()
        #expect(before.floor == 0)
        let book = try server.store.openBook()
        for person in book.allPeople().prefix(3) { try book.remove(person) }
        try book.save()
        let after = try collection.listing()
        #expect(after.removed.count == 2)
        #expect(after.floor > before.token.sequence)
        #expect(after.entries.count == 1)
        // The forgotten removal is not read back after a restart either.
        let restarted = try CardDAVCollection(layout: StoreLayout(root: server.store.storeURL), maximumRemovals: 2).listing()
        #expect(restarted.removed == after.removed && restarted.floor == after.floor && restarted.token == after.token)
    }

    @Test func theStateFileIsRewrittenWhenAppendsOutnumberTheCards() throws {
        let folder = try TemporaryStore()
        let url = folder.url.appending(path: "carddav/state")
        var state = CardDAVStateFile()
        try state.save(appending: [], lineCount: 0, to: url)
        #expect(try Data(contentsOf: url) == state.data)
        let removal = CardDAVStateFile.line(removed: "x.vcf", sequence: 1)
        state.removed["x.vcf"] = 1
        try state.save(appending: removal, lineCount: 1, to: url)
        #expect(try Data(contentsOf: url).count == state.data.count)
        state.lineCount = 5_000
        state.removed["y.vcf"] = 2
        try state.save(appending: CardDAVStateFile.line(removed: "y.vcf", sequence: 2), lineCount: 1, to: url)
        #expect(try Data(contentsOf: url) == state.data)
        #expect(state.lineCount == state.compactLineCount)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["state"])
    }

    @Test func aServedStoreIsNeededToStart() throws {
        let folder = try TemporaryStore()
        #expect(throws: ContactsError.self) { try CardDAVService(storeURL: folder.url.appending(path: "none")) }
    }
}
