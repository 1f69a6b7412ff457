import DAVTestSupport
import Foundation
import PlainContactsSystem
import Synchronization
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
        try state.save(lineCount: 0, to: url) { [] }
        #expect(try Data(contentsOf: url) == state.data)
        let removal = CardDAVStateFile.line(removed: "x.vcf", sequence: 1)
        state.removed["x.vcf"] = 1
        try state.save(lineCount: 1, to: url) { removal }
        #expect(try Data(contentsOf: url).count == state.data.count)
        state.lineCount = 5_000
        state.removed["y.vcf"] = 2
        try state.save(lineCount: 1, to: url) { CardDAVStateFile.line(removed: "y.vcf", sequence: 2) }
        #expect(try Data(contentsOf: url) == state.data)
        #expect(state.lineCount == state.compactLineCount)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["state"])
    }

    @Test func aServedStoreIsNeededToStart() throws {
        let folder = try TemporaryStore()
        #expect(throws: ContactsError.self) { try CardDAVService(storeURL: folder.url.appending(path: "none")) }
    }

    // MARK: Outside edits, told by the store's folder watch

    @Test func listingsAfterTheFirstLookOnlyAtTheFilesThatChanged() throws {
        let server = try CardDAVTestStore()
        var ids: [RecordID] = []
        for index in 0..<20 { ids.append(try server.addPerson("Person", "\(index)", uid: "p\(index)")) }
        let before = try server.etags()
        #expect(before.count == 20)

        // Another program's save, an editor writing in place, a removal and an addition.
        try server.editPerson(ids[0]) { $0.note = "edited by another program" }
        let book = try server.store.openBook()
        let file = server.store.path(try server.store.personFile(try #require(book.person(withID: ids[1]))))
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"1\"", with: "\"One\"")
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try book.remove(try #require(book.person(withID: ids[2])))
        try book.save()
        try server.addPerson("New", "Person", uid: "new")
        let after = try server.etags()

        let (p0, p1, p2, new) = (server.cardPath("p0.vcf"), server.cardPath("p1.vcf"), server.cardPath("p2.vcf"), server.cardPath("new.vcf"))
        #expect(Set(after.keys) == Set(before.keys).subtracting([p2]).union([new]))
        #expect(after[p0] != before[p0] && after[p1] != before[p1])
        for (path, etag) in before where ![p0, p1, p2].contains(path) { #expect(after[path] == etag, "\(path)") }
        #expect(try server.service.collection.card(named: "p1.vcf").map { String(decoding: $0.data, as: UTF8.self) }?.contains("N:One;Person") == true)
        #expect(server.service.collection.fullLooks == 1)
    }

    @Test func whatChangedWhileTheServerWasDownIsSeenByItsFirstListing() throws {
        let server = try CardDAVTestStore()
        var ids: [RecordID] = []
        for index in 0..<6 { ids.append(try server.addPerson("Person", "\(index)", uid: "p\(index)")) }
        let before = try server.etags()
        let token = try #require(try server.multistatus(server.syncCollection("")).syncToken)

        // While no server runs: one removed, one edited, one added.
        let book = try server.store.openBook()
        try book.remove(try #require(book.person(withID: ids[2])))
        try book.save()
        try server.editPerson(ids[4]) { $0.note = "edited while down" }
        try server.addPerson("New", "Person", uid: "new")
        try server.restart()

        let after = try server.etags()
        let (p2, p4, new) = (server.cardPath("p2.vcf"), server.cardPath("p4.vcf"), server.cardPath("new.vcf"))
        #expect(Set(after.keys) == Set(before.keys).subtracting([p2]).union([new]))
        #expect(after[p4] != before[p4])
        for (path, etag) in before where ![p2, p4].contains(path) { #expect(after[path] == etag, "\(path)") }
        // The token from before the restart still answers, with exactly those changes.
        let changes = try server.multistatus(server.syncCollection(token))
        #expect(Set(changes.responses.map(\.href)) == [p2, p4, new])
        #expect(changes.responses.first { $0.href == p2 }?.status == 404)
    }

    @Test func aGitPullOfManyRecordsIsSeenByTheNextListing() throws {
        let server = try CardDAVTestStore()
        var ids: [RecordID] = []
        for index in 0..<5 { ids.append(try server.addPerson("Person", "\(index)", uid: "p\(index)")) }
        try git(["init", "-q"], in: server.store.storeURL)
        try git(["add", "-A"], in: server.store.storeURL)
        try git(["commit", "-q", "-m", "Five people"], in: server.store.storeURL)
        let other = try TemporaryStore()
        try git(["clone", "-q", server.store.storeURL.path, other.storeURL.path], in: other.url)
        let elsewhere = try AddressBook(url: other.storeURL)
        for index in 0..<60 { try elsewhere.add(makePerson("Pulled", "\(index)")) }
        try #require(elsewhere.person(withID: ids[3])).note = "changed on the other computer"
        try elsewhere.remove(try #require(elsewhere.person(withID: ids[4])))
        try elsewhere.save()
        try git(["add", "-A"], in: other.storeURL)
        try git(["commit", "-q", "-m", "Sixty more"], in: other.storeURL)
        let before = try server.etags()

        try git(["pull", "-q", other.storeURL.path, "HEAD"], in: server.store.storeURL)
        let after = try server.etags()

        #expect(after.count == 5 + 60 - 1)
        #expect(after[server.cardPath("p4.vcf")] == nil)
        #expect(after[server.cardPath("p3.vcf")] != before[server.cardPath("p3.vcf")])
        #expect(after[server.cardPath("p0.vcf")] == before[server.cardPath("p0.vcf")])
        #expect(server.service.collection.fullLooks == 1)
    }

    @Test func aChangeQueueThatOverflowedFallsBackToLookingAtEveryFileAndSaysSo() throws {
        let server = try CardDAVTestStore()
        let katie = try server.addPerson("Katie", "Bell", uid: "k")
        let logged = Mutex<[String]>([])
        let collection = CardDAVCollection(layout: StoreLayout(root: server.store.storeURL)) { line in
            logged.withLock { $0.append(line) }
        }
        let before = try collection.listing()

        // More events than the kernel keeps (`fs.inotify.max_queued_events`), alternating between
        // two hidden files so that none is merged with the one before, then a real change.
        let limit = try Int(String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 16_384
        let scratch = ["people/.scratch-a", "people/.scratch-b"].map { server.store.path($0) }
        for url in scratch { try Data().write(to: url) }
        let handles = try scratch.map { try FileHandle(forWritingTo: $0) }
        for round in 0...(limit / 2 + 8) {
            for handle in handles { try handle.write(contentsOf: Data([UInt8(truncatingIfNeeded: round)])) }
        }
        for handle in handles { try handle.close() }
        for url in scratch { try FileManager.default.removeItem(at: url) }
        try server.editPerson(katie) { $0.lastName = "Weasley" }
        let after = try collection.listing()

        #expect(after.entries["k.vcf"]?.etag != before.entries["k.vcf"]?.etag)
        #expect(after.token.sequence == before.token.sequence + 1)
        #expect(collection.fullLooks == 2)
        #expect(logged.withLock { $0 }.contains { $0.contains("overflowed") })
    }

    // MARK: Bulk changes, listed without making the cards

    /// Adds `count` people in one save, as an import does; one of them has a photo.
    private func addMany(_ count: Int, to server: CardDAVTestStore) throws {
        let book = try server.store.openBook()
        for index in 0..<count {
            let person = makePerson("Bulk", "\(index)")
            if index % 3 == 0 {
                var state = person.state
                VCardRecordFields.setUID("b\(index)", in: &state)
                person.state = state
            }
            if index == 5 { person.setImageData(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])) }
            try book.add(person)
        }
        try book.save()
    }

    /// A store given a bulk change (a few more people than ``CardDAVRefresher.bulkChange``),
    /// and the first listing of it.
    private func bulkListed() throws -> (server: CardDAVTestStore, count: Int, listing: CardDAVCollection.Listing) {
        let count = CardDAVRefresher.bulkChange + 44
        let server = try CardDAVTestStore()
        try addMany(count, to: server)
        return (server, count, try server.service.collection.listing())
    }

    @Test func aBulkChangeIsListedWithoutMakingTheCardsAndTheirETagsHoldWhenTheyAreMade() throws {
        let (server, count, listing) = try bulkListed()
        let collection = server.service.collection

        #expect(listing.entries.count == count)
        // Only the person with a photo had the card made: its ETag needs the photo's bytes.
        #expect(listing.entries.values.filter { $0.length == CardDAVEntry.unknownLength }.count == count - 1)
        #expect(listing.entries["b0.vcf"] != nil && listing.entries["b3.vcf"] != nil)
        let cards = try collection.cards(named: listing.entries.keys)
        #expect(cards.count == count)
        for (name, card) in cards {
            #expect(card.entry.etag == listing.entries[name]?.etag, "\(name)")
            #expect(card.entry.uid == listing.entries[name]?.uid, "\(name)")
            #expect(card.entry.length == card.data.count, "\(name)")
        }
        #expect(try collection.token() == listing.token)

        // A client asking for lengths gets them, made for the cards not made yet.
        try server.restart()
        let answered = try server.propfind(server.collectionPath, depth: "1", ["d:getetag", "d:getcontentlength"])
        let lengths = answered.responses.filter { $0.href != server.collectionPath }
            .compactMap { $0.property(.dav("getcontentlength")).flatMap { Int($0.text) } }
        #expect(lengths.count == count)
        #expect(lengths.allSatisfy { $0 > 0 })
    }

    @Test func cardsListedWithoutBeingMadeAreMadeInTheBackground() throws {
        let (server, _, listed) = try bulkListed()
        let collection = server.service.collection
        #expect(listed.entries.values.contains { $0.length == CardDAVEntry.unknownLength })

        // Waits for the background making, at most a minute on a loaded machine.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        var lengths: [String: Int] = [:]
        while clock.now < deadline {
            lengths = try collection.listing().entries.mapValues(\.length)
            if !lengths.values.contains(CardDAVEntry.unknownLength) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(!lengths.values.contains(CardDAVEntry.unknownLength))
        // The cards made in the background are those served, under the ETags listed.
        let cards = try collection.cards(named: listed.entries.keys)
        for (name, card) in cards {
            #expect(card.entry.etag == listed.entries[name]?.etag, "\(name)")
            #expect(lengths[name] == card.data.count, "\(name)")
        }
        #expect(try collection.token() == listed.token)
    }

    @Test func aListedPersonHasTheUIDAndETagOfTheCardMadeLater() throws {
        let server = try CardDAVTestStore()
        try addMany(12, to: server)
        let book = try server.store.openBook()
        let maker = server.service.collection.maker
        for person in book.allPeople() {
            let key = try #require(person.key)
            guard case .made(let listed) = maker.listedPeople([key])[0] else {
                Issue.record("no card listed for \(key.rawValue)")
                continue
            }
            let made = try #require(try maker.person(key))
            #expect(listed.uid == made.uid && listed.uid == CardMapping.matchKey(of: person))
            #expect(listed.etag == made.etag)
            #expect((listed.data == nil) == (try person.imageData() == nil))
        }
    }

    @Test func aPersonCardsETagChangesWithTheRecordFileAndThePhotoAlone() throws {
        let server = try CardDAVTestStore()
        try addMany(6, to: server)
        let book = try server.store.openBook()
        let person = try #require(book.allPeople().first { $0.lastName == "5" })
        let key = try #require(person.key)
        let maker = server.service.collection.maker
        let before = try #require(try maker.person(key))
        let imageName = try #require(try server.store.files(in: "people").first { $0.hasPrefix(key.rawValue + ".png") })
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9, 9, 9]).write(to: server.store.path("people/" + imageName))
        let newPhoto = try #require(try maker.person(key))
        #expect(newPhoto.etag != before.etag)
        #expect(newPhoto.etag.hasPrefix(CardDAVCardMaker.personETagPrefix))
        #expect(try #require(try maker.person(key)).etag == newPhoto.etag)
    }

    @Test func cardsListedByAnEarlierMappingAreLookedAtAgain() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "k")
        try server.addPerson("Oliver", "Wood", uid: "o")
        let before = try server.service.collection.listing()
        // The ETags an earlier mapping gave: without this version's prefix.
        let url = CardDAVStateFile.url(in: StoreLayout(root: server.store.storeURL))
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\t" + CardDAVCardMaker.personETagPrefix, with: "\t").utf8).write(to: url)
        try server.restart()
        let after = try server.service.collection.listing()

        #expect(after.entries.values.allSatisfy { $0.etag.hasPrefix(CardDAVCardMaker.personETagPrefix) })
        #expect(after.token.sequence == before.token.sequence + 2)
        #expect(after.entries["k.vcf"]?.etag == before.entries["k.vcf"]?.etag)
    }

    @Test func theRecordsChangedSinceATokenAreNamedAndAfterARestartTheRemovedFound() throws {
        let server = try CardDAVTestStore()
        let katie = try server.addPerson("Katie", "Bell")
        let oliver = try server.addPerson("Oliver", "Wood")
        let collection = server.service.collection
        let before = try collection.token()
        let book = try server.store.openBook()
        let katieKey = try #require(book.person(withID: katie)?.key)
        let oliverKey = try #require(book.person(withID: oliver)?.key)

        try server.editPerson(katie) { $0.note = "changed elsewhere" }
        #expect(server.send("DELETE", server.cardPath(try #require(collection.listing().entries.values.first {
            $0.record.key == oliverKey
        }?.name))).status == 204)
        let (now, records, people) = try collection.token(withRecordsChangedSince: before)

        #expect(now.sequence == before.sequence + 2)
        #expect(records == [.init(kind: .person, key: katieKey), .init(kind: .person, key: oliverKey)])
        #expect(people == nil)
        #expect(try collection.token(withRecordsChangedSince: now).records == [])
        // Another history cannot be told.
        #expect(try collection.token(withRecordsChangedSince: .init(instance: "other", sequence: 0)).records == nil)
        // After a restart the state file names the cards changed since, and the people still
        // there tell who was removed.
        let restarted = CardDAVCollection(layout: StoreLayout(root: server.store.storeURL), warmsUp: false)
        let (again, changed, present) = try restarted.token(withRecordsChangedSince: before)
        #expect(again == now)
        #expect(changed == [.init(kind: .person, key: katieKey)])
        #expect(present == [katieKey])
        #expect(try restarted.token(withRecordsChangedSince: now).records == [])
    }
}
