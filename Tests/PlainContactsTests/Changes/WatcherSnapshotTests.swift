import Foundation
import Testing
@testable import PlainContacts

@Suite("WatcherSnapshot")
struct WatcherSnapshotTests {
    private final class Folder {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory
                .appending(path: "WatcherSnapshotTests-\(UUID().uuidString)", directoryHint: .isDirectory)
            for name in ["people", "groups"] {
                try FileManager.default.createDirectory(at: url.appending(path: name), withIntermediateDirectories: true)
            }
        }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }

        var rootPath: String { url.path(percentEncoded: false).trimmingSuffix("/") }

        func write(_ text: String, to relative: String) throws {
            try Data(text.utf8).write(to: url.appending(path: relative))
        }

        func remove(_ relative: String) throws {
            try FileManager.default.removeItem(at: url.appending(path: relative))
        }
    }

    private func scanned(_ folder: Folder) -> WatcherSnapshot {
        var snapshot = WatcherSnapshot(rootPath: folder.rootPath)
        snapshot.scanAll()
        return snapshot
    }

    @Test
    func initialScanReadsRecordsButNotImages() throws {
        let folder = try Folder()
        try folder.write("{\"id\": 1}", to: "people/a.json")
        try folder.write("image", to: "people/a.jpg")
        try folder.write("{\"id\": 2}", to: "groups/g.json")
        try folder.write("a\n", to: "groups/g.members")
        try folder.write("{}", to: "store.json")
        try folder.write("ignored", to: "people/.a.json.swp")

        let snapshot = scanned(folder)

        #expect(Set(snapshot.files.keys) == ["people/a.json", "people/a.jpg", "groups/g.json", "groups/g.members", "store.json"])
        #expect(snapshot.files["people/a.json"]?.recordID == RecordID(1))
        #expect(snapshot.files["people/a.json"]?.fingerprint == fnv1a64(Data("{\"id\": 1}".utf8)))
        #expect(snapshot.files["people/a.jpg"]?.fingerprint == nil)
        #expect(snapshot.files["groups/g.json"]?.recordID == RecordID(2))
    }

    @Test
    func fileWhoseIDBecomesUnreadableCountsAsChanged() throws {
        let folder = try Folder()
        try folder.write("{\"id\": 3}", to: "people/a.json")
        var snapshot = scanned(folder)

        try folder.write("<<<<<<< HEAD\n{\"id\": 3}\n=======\n{\"id\": 3}\n>>>>>>> other\n", to: "people/a.json")
        let change = snapshot.update(paths: ["people/a.json"]) { _, _ in false }

        #expect(change == StoreChange(changedPeople: [RecordID(3)]))
    }

    @Test
    func secondFileWithTheSameIDIsAChangeAndItsRemovalToo() throws {
        let folder = try Folder()
        try folder.write("{\"id\": 4}", to: "people/a.json")
        var snapshot = scanned(folder)

        try folder.write("{\"id\": 4, \"copy\": true}", to: "people/b.json")
        let copied = snapshot.update(paths: ["people/b.json"]) { _, _ in false }
        try folder.remove("people/a.json")
        let originalRemoved = snapshot.update(paths: ["people/a.json"]) { _, _ in false }
        try folder.remove("people/b.json")
        let copyRemoved = snapshot.update(paths: ["people/b.json"]) { _, _ in false }

        #expect(copied == StoreChange(changedPeople: [RecordID(4)]))
        #expect(originalRemoved == StoreChange(changedPeople: [RecordID(4)]))
        #expect(copyRemoved == StoreChange(removedPeople: [RecordID(4)]))
    }

    @Test
    func imageWithoutPersonFileIsNotReported() throws {
        let folder = try Folder()
        var snapshot = scanned(folder)

        try folder.write("image", to: "people/orphan.jpg")
        let change = snapshot.update(paths: ["people/orphan.jpg"]) { _, _ in false }

        #expect(change.isEmpty)
        #expect(snapshot.files["people/orphan.jpg"] != nil)
    }

    @Test
    func ownWriteIsRecordedWithoutBeingReported() throws {
        let folder = try Folder()
        var snapshot = scanned(folder)
        let text = "{\"id\": 5}"

        try folder.write(text, to: "people/a.json")
        let own = snapshot.update(paths: ["people/a.json"]) { path, fingerprint in
            path == "people/a.json" && fingerprint == fnv1a64(Data(text.utf8))
        }
        try folder.remove("people/a.json")
        let external = snapshot.update(paths: ["people/a.json"]) { _, _ in false }

        #expect(own.isEmpty)
        #expect(external == StoreChange(removedPeople: [RecordID(5)]))
    }

    @Test
    func removingPersonAndImageTogetherReportsOnlyTheRemoval() throws {
        let folder = try Folder()
        try folder.write("{\"id\": 6}", to: "people/a.json")
        try folder.write("image", to: "people/a.jpg")
        var snapshot = scanned(folder)

        try folder.remove("people/a.json")
        try folder.remove("people/a.jpg")
        let change = snapshot.update(paths: ["people/a.jpg", "people/a.json"]) { _, _ in false }

        #expect(change == StoreChange(removedPeople: [RecordID(6)]))
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.count > 1 && text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
