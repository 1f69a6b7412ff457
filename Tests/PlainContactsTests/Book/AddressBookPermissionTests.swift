import DAVTestSupport
import Foundation
import Glibc
import Testing

@testable import PlainContacts

/// The store is private whatever the umask: folders `0700`, files `0600`.
@Suite("AddressBook permissions", .serialized)
struct AddressBookPermissionTests {
    @Test(arguments: [mode_t(0), mode_t(0o022)])
    func everyFolderIs0700AndEveryFileIs0600(umask mask: mode_t) throws {
        let store = try TemporaryStore()
        try withUmask(mask) {
            let book = try AddressBook.create(at: store.storeURL)
            let katie = makePerson("Katie", "Bell")
            katie.setImageData(Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("image".utf8))
            var phones = MultiValue<String>()
            phones.add("555-0100", label: .mobile)
            katie.phones = phones
            let group = Group(name: "Friends")
            try book.add(katie)
            try book.add(group)
            try book.save()
            try group.addMember(katie)
            katie.note = "edited"
            try book.save()
        }

        let entries = try modes(under: store.storeURL)
        let files = entries.filter { !$0.isFolder }.map(\.path)
        for required in ["store.json", ".gitignore", ".gitattributes", ".contacts/lock", ".contacts/ids.json"] {
            #expect(files.contains(required), "missing \(required)")
        }
        #expect(files.contains { $0.hasPrefix("people/") && $0.hasSuffix(".json") })
        #expect(files.contains { $0.hasPrefix("people/") && $0.hasSuffix(".jpg") })
        #expect(files.contains { $0.hasPrefix("groups/") && $0.hasSuffix(".json") })
        #expect(files.contains { $0.hasPrefix("groups/") && $0.hasSuffix(".members") })
        for entry in entries {
            let expected: mode_t = entry.isFolder ? 0o700 : 0o600
            #expect(entry.mode == expected, "\(entry.path.isEmpty ? "<store>" : entry.path) has mode \(String(entry.mode, radix: 8))")
        }
    }

    /// The store folder itself and everything under it, with permission bits, without following
    /// links.
    private func modes(under root: URL) throws -> [(path: String, mode: mode_t, isFolder: Bool)] {
        var result: [(path: String, mode: mode_t, isFolder: Bool)] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? root.path : root.appending(path: relative).path
            var status = stat()
            try #require(lstat(path, &status) == 0, "cannot stat \(relative)")
            let isFolder = status.st_mode & S_IFMT == S_IFDIR
            result.append((relative, status.st_mode & 0o7777, isFolder))
            if isFolder {
                for name in try FileManager.default.contentsOfDirectory(atPath: path) {
                    pending.append(relative.isEmpty ? name : relative + "/" + name)
                }
            }
        }
        return result
    }
}
