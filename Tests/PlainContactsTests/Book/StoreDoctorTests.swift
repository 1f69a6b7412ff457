import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct StoreDoctorTests {
    private let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])

    /// A saved store: Katie Bell (with an image) and John Appleseed, both in Friends.
    private func makeStore(_ store: TemporaryStore) throws -> (katie: Person, john: Person, friends: Group) {
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.phones = MultiValue([(value: "555-0100", label: .mobile)])
        katie.setImageData(png)
        let john = makePerson("John", "Appleseed")
        let friends = Group(name: "Friends")
        try book.add(katie)
        try book.add(john)
        try book.add(friends)
        try book.save()
        try friends.addMember(katie)
        try friends.addMember(john)
        try book.save()
        return (katie, john, friends)
    }

    /// Every file of the store outside `.contacts/`, with its bytes.
    private func snapshot(_ store: TemporaryStore) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for folder in ["", "people", "groups"] {
            for name in try store.files(in: folder) {
                let path = folder.isEmpty ? name : folder + "/" + name
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: store.path(path).path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                files[path] = try Data(contentsOf: store.path(path))
            }
        }
        return files
    }

    private func kinds(_ findings: [DoctorFinding]) -> [DoctorFinding.Kind] { findings.map(\.kind) }

    @Test func aHealthyStoreHasNoFindings() throws {
        let store = try TemporaryStore()
        _ = try makeStore(store)
        let before = try snapshot(store)
        let doctor = StoreDoctor(storeURL: store.storeURL)
        #expect(try doctor.check().isEmpty)
        #expect(try doctor.fix().isEmpty)
        #expect(try snapshot(store) == before)
    }

    @Test func checkingChangesNothing() throws {
        let store = try TemporaryStore()
        let (katie, _, _) = try makeStore(store)
        try store.write("{\n    \"id\": 1\n}\n", to: "people/hand-made-aaaaaa.json")
        try store.write("ghost-zzzzzz\n", to: "groups/friends-zzzzzz.members")
        try store.write("x", to: "people/.\(try #require(katie.key)).json.tmp-0123")
        let before = try snapshot(store)
        #expect(try !StoreDoctor(storeURL: store.storeURL).check().isEmpty)
        #expect(try snapshot(store) == before)
    }

    @Test func aMalformedFileIsReportedWithItsLineAndLeftAlone() throws {
        let store = try TemporaryStore()
        _ = try makeStore(store)
        try store.write("{\n  \"id\": 9,\n  \"firstName\": \n}\n", to: "people/broken-aaaaaa.json")
        try store.write("leftover", to: "groups/.x.members.tmp-77")

        let findings = try StoreDoctor(storeURL: store.storeURL).check()
        let malformed = try #require(findings.first { $0.kind == .malformedFile })
        #expect(malformed.path == "people/broken-aaaaaa.json")
        #expect(malformed.line == 4)
        #expect(!malformed.fixable)

        let fixed = try StoreDoctor(storeURL: store.storeURL).fix()
        #expect(fixed.filter { !$0.fixed }.map(\.kind) == [.malformedFile])
        #expect(try store.files(in: "groups").allSatisfy { !$0.contains(".tmp-") })
        #expect(try store.read("people/broken-aaaaaa.json").contains("\"firstName\": \n"))
    }

    @Test func conflictMarkersAreReportedWithTheFirstMarkersLine() throws {
        let store = try TemporaryStore()
        let (katie, _, _) = try makeStore(store)
        let path = try store.personFile(katie)
        let text = try store.read(path).replacingOccurrences(
            of: "  \"firstName\": \"Katie\",\n",
            with: "<<<<<<< ours\n  \"firstName\": \"Katie\",\n=======\n  \"firstName\": \"Kate\",\n>>>>>>> theirs\n")
        try store.write(text, to: path)

        let findings = try StoreDoctor(storeURL: store.storeURL).fix()

        let conflict = try #require(findings.first { $0.kind == .conflictMarkers })
        #expect(conflict.path == path)
        #expect(conflict.line == text.split(separator: "\n").firstIndex { $0.hasPrefix("<<<<<<<") }.map { $0 + 1 })
        #expect(!conflict.fixed)
        #expect(try store.read(path) == text)
        // Katie's image is not taken for an orphan while her record cannot be read.
        #expect(!findings.contains { $0.kind == .orphanSidecar })
    }

    /// Two clones each gave the same record ID and were merged: the store settles it alike on
    /// every clone when it is read, so the doctor neither reports it nor rewrites a file only to
    /// write the settled ID (a clone that removed the person meanwhile would then meet a
    /// modify/delete conflict).
    @Test func aSharedRecordIDIsNoFindingAndTheFixWritesNothing() throws {
        let store = try TemporaryStore()
        let (katie, john, _) = try makeStore(store)
        let johnPath = try store.personFile(john)
        let original = try store.read(johnPath)
        try store.write(original.replacingOccurrences(of: "\"id\": \(john.recordID)", with: "\"id\": \(katie.recordID)"), to: johnPath)
        func recordFiles() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for folder in ["people", "groups"] {
                for name in try store.files(in: folder) { files["\(folder)/\(name)"] = try Data(contentsOf: store.path("\(folder)/\(name)")) }
            }
            return files
        }
        let before = try recordFiles()
        let bookIDs = Set(try store.openBook().allPeople().map(\.recordID))
        #expect(bookIDs.count == 2)

        #expect(try StoreDoctor(storeURL: store.storeURL).check().isEmpty)
        #expect(try StoreDoctor(storeURL: store.storeURL).fix().isEmpty)

        #expect(try recordFiles() == before)
        #expect(Set(try store.openBook().allPeople().map(\.recordID)) == bookIDs)
    }

    @Test func membershipLinesNamingNobodyAreDropped() throws {
        let store = try TemporaryStore()
        let (_, _, friends) = try makeStore(store)
        let path = "groups/\(try #require(friends.key).rawValue).members"
        let canonical = try store.read(path)
        try store.write(canonical + "zz-ghost-zzzzzz\n", to: path)

        let findings = try StoreDoctor(storeURL: store.storeURL).check()
        #expect(kinds(findings) == [.danglingMember])
        #expect(findings.first?.line == 3)
        #expect(findings.first?.recordID == friends.recordID)

        _ = try StoreDoctor(storeURL: store.storeURL).fix()
        #expect(try store.read(path) == canonical)
    }

    @Test func anEmptyGroupsEmptyMembershipFileIsHealthy() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let empty = Group(name: "Empty")
        try book.add(empty)
        try book.save()
        let path = "groups/\(try #require(empty.key).rawValue).members"
        #expect(try store.read(path) == "")
        #expect(try StoreDoctor(storeURL: store.storeURL).check().isEmpty)
    }

    @Test func droppingAGroupsOnlyDanglingMemberKeepsItsEmptyFile() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let empty = Group(name: "Empty")
        try book.add(empty)
        try book.save()
        let path = "groups/\(try #require(empty.key).rawValue).members"
        try store.write("zz-ghost-zzzzzz\n", to: path)

        #expect(try kinds(StoreDoctor(storeURL: store.storeURL).check()) == [.danglingMember])
        _ = try StoreDoctor(storeURL: store.storeURL).fix()
        #expect(try store.read(path) == "")
        #expect(try StoreDoctor(storeURL: store.storeURL).check().isEmpty)
    }

    @Test func untidyMembershipFilesAreRewrittenCanonically() throws {
        let store = try TemporaryStore()
        let (katie, john, friends) = try makeStore(store)
        let path = "groups/\(try #require(friends.key).rawValue).members"
        let canonical = try store.read(path)
        let (k, j) = (try #require(katie.key).rawValue, try #require(john.key).rawValue)
        try store.write("\(k)\r\n\n\(j)\n\(k)\n  \(j)", to: path)

        #expect(try kinds(StoreDoctor(storeURL: store.storeURL).check()) == [.duplicateMemberLine])
        _ = try StoreDoctor(storeURL: store.storeURL).fix()
        #expect(try store.read(path) == canonical)
    }

    @Test func anImageNobodyUsesIsMovedToLostAndFound() throws {
        let store = try TemporaryStore()
        let (katie, _, _) = try makeStore(store)
        let stray = Data([0xFF, 0xD8, 0xFF, 9, 9])
        try stray.write(to: store.path("people/old-photo.jpg"))

        let findings = try StoreDoctor(storeURL: store.storeURL).check()
        #expect(kinds(findings) == [.orphanSidecar])
        #expect(findings.first?.path == "people/old-photo.jpg")

        _ = try StoreDoctor(storeURL: store.storeURL).fix()
        #expect(!FileManager.default.fileExists(atPath: store.path("people/old-photo.jpg").path))
        #expect(try Data(contentsOf: store.path(".contacts/lost+found/old-photo.jpg")) == stray)
        #expect(try store.openBook().person(withID: katie.recordID)?.imageData() == png)
    }

    @Test func anInterruptedCommitIsFinished() throws {
        let store = try TemporaryStore()
        _ = try makeStore(store)
        try FileManager.default.createDirectory(at: store.path(".contacts/staging/abc"), withIntermediateDirectories: true)
        try store.write("half", to: ".contacts/staging/abc/0")

        #expect(try kinds(StoreDoctor(storeURL: store.storeURL).check()) == [.interruptedCommit])
        let after = try StoreDoctor(storeURL: store.storeURL).fix()
        #expect(after.map(\.kind) == [.interruptedCommit])
        #expect(after.allSatisfy { $0.fixed })
        #expect(!FileManager.default.fileExists(atPath: store.path(".contacts/staging").path))
    }

    @Test func handEditedFilesAreRewrittenCanonicallyKeepingUnknownKeys() throws {
        let store = try TemporaryStore()
        let (katie, _, _) = try makeStore(store)
        let path = try store.personFile(katie)
        let edited = try store.read(path)
            .replacingOccurrences(of: "\n  ", with: "\n    ")
            .replacingOccurrences(of: "{\n", with: "{\n    \"x-pet\": {\"name\": \"Rex\"},\n")
        try store.write(edited, to: path)

        let findings = try StoreDoctor(storeURL: store.storeURL).check()
        #expect(kinds(findings) == [.nonCanonicalFile])
        _ = try StoreDoctor(storeURL: store.storeURL).fix()

        let person = try #require(try store.openBook().person(withID: katie.recordID))
        #expect(person.state.unknownFields["x-pet"] == .object(["name": .string("Rex")]))
        #expect(try store.read(path) == String(decoding: PersonRecordCoder.encode(id: katie.recordID, state: person.state), as: UTF8.self))
        #expect(try StoreDoctor(storeURL: store.storeURL).check().isEmpty)
    }

    @Test func aNameEditedByHandGetsItsHashRewritten() throws {
        let store = try TemporaryStore()
        let (katie, _, _) = try makeStore(store)
        let path = try store.personFile(katie)
        try store.write(try store.read(path).replacingOccurrences(of: "\"Katie\"", with: "\"Kathy\""), to: path)

        let findings = try StoreDoctor(storeURL: store.storeURL).check()
        #expect(kinds(findings) == [.staleNameHash])
        #expect(findings.first?.recordID == katie.recordID)
        _ = try StoreDoctor(storeURL: store.storeURL).fix()
        let decoded = try PersonRecordCoder.decode(Data(try store.read(path).utf8), path: path)
        #expect(decoded.storedNameHash == NameHash.of(firstName: "Kathy", lastName: "Bell"))
    }

    @Test func strayTemporaryFilesAreRemoved() throws {
        let store = try TemporaryStore()
        let (katie, _, _) = try makeStore(store)
        let name = ".\(try #require(katie.key).rawValue).json.tmp-0a1b2c"
        try store.write("{", to: "people/\(name)")
        try store.write("{", to: ".store.json.tmp-99")

        #expect(try kinds(StoreDoctor(storeURL: store.storeURL).check()) == [.strayTemporaryFile, .strayTemporaryFile])
        _ = try StoreDoctor(storeURL: store.storeURL).fix()
        #expect(try !store.files(in: "people").contains(name))
        #expect(try !store.files(in: "").contains(".store.json.tmp-99"))
    }

    @Test func aNonCanonicalManifestIsRewrittenKeepingItsSettings() throws {
        let store = try TemporaryStore()
        _ = try makeStore(store)
        try store.write("{\"sortOrdering\": \"firstName\", \"format\": 1, \"autoCommit\": true}", to: "store.json")
        #expect(try kinds(StoreDoctor(storeURL: store.storeURL).check()) == [.nonCanonicalFile])
        _ = try StoreDoctor(storeURL: store.storeURL).fix()
        let manifest = try Manifest(data: Data(try store.read("store.json").utf8), path: "store.json")
        #expect(manifest.sortOrdering == .firstName)
        #expect(manifest.unknownFields["autoCommit"] == .bool(true))
        #expect(try Data(contentsOf: store.path("store.json")) == manifest.data)
    }

    @Test func aFolderWithoutAStoreIsNotAStore() throws {
        let store = try TemporaryStore()
        #expect {
            _ = try StoreDoctor(storeURL: store.url).check()
        } throws: { ($0 as? ContactsError)?.code == .notAStore }
        #expect {
            _ = try StoreDoctor(storeURL: store.url).fix()
        } throws: { ($0 as? ContactsError)?.code == .notAStore }
    }
}
