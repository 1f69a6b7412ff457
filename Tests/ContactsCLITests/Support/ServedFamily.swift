import Foundation
import Testing

/// A household's books on one `contacts serve`: the sandbox's store is Kim's own book
/// (`contacts`), the store `family` beside it the shared one. Kim reads and writes both; the
/// tablet's account may only read the family's book. Both passwords are ``password``.
final class ServedFamily {
    static let password = "secret"

    private static let testIterations = ["CONTACTS_TEST_PASSWORD_ITERATIONS": "1000"]

    let sandbox: CLISandbox
    /// The family's store.
    let family: URL
    let server: ServeProcess

    init() throws {
        sandbox = try CLISandbox()
        try sandbox.initStore()
        family = sandbox.root.appending(path: "family", directoryHint: .isDirectory)
        let familyStore = family.path(percentEncoded: false)
        try sandbox.succeed(["--store", familyStore, "init"])
        _ = try sandbox.add(["Kim Own", "--email", "kim@example.com"])
        for name in ["Grace Family", "Ada Family"] {
            try sandbox.succeed(["--store", familyStore, "add", name])
        }
        // The sandbox's commands run in its root, where the family's store is ./family.
        for (user, books) in [("kim", ["--book", "contacts", "--book", "./family"]), ("tablet", ["--book", "family", "--read-only"])] {
            let added = try sandbox.run(["user", "add", user] + books, environment: Self.testIterations, input: Self.password + "\n")
            try #require(added.status == 0, "\(added)")
        }
        server = try ServeProcess(sandbox: sandbox, environment: Self.testIterations)
    }

    /// The URL of a user's book.
    func book(_ name: String, of user: String) -> URL {
        server.url.appending(path: "\(user)/\(name)/")
    }

    /// The names of the people of the family's store, sorted.
    func familyNames() throws -> [String] {
        try sandbox.succeed(["--store", family.path(percentEncoded: false), "list"]).lines
            .map { String($0.split(separator: "\t")[1]) }.sorted()
    }

    /// Every file of the family's store, `.contacts/` included, with its bytes.
    func familyFiles() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = family.path(percentEncoded: false)
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return files }
        for case let path as String in enumerator {
            var isFolder: ObjCBool = false
            let full = base + "/" + path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = FileManager.default.contents(atPath: full)
            }
        }
        return files
    }
}
