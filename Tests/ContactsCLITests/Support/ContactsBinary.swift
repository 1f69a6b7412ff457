import Foundation

/// The built `contacts` executable, found in the build products folder beside the test bundle.
///
/// `swift build --build-tests` builds it because the test target depends on it. Set
/// `CONTACTS_BINARY` to test another build.
enum ContactsBinary {
    struct Missing: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the `contacts` executable was not found; build it with `swift build --build-tests` "
                + "(or set CONTACTS_BINARY). Looked in: " + searched.joined(separator: ", ")
        }
    }

    static func url() throws -> URL {
        let candidates = candidateFolders.map { $0.appending(path: "contacts") }
        let environment = ProcessInfo.processInfo.environment["CONTACTS_BINARY"].map { URL(filePath: $0) }
        for candidate in [environment].compactMap({ $0 }) + candidates
        where FileManager.default.isExecutableFile(atPath: candidate.path(percentEncoded: false)) {
            return candidate
        }
        throw Missing(searched: candidates.map { $0.path(percentEncoded: false) })
    }

    /// The products folder: where the test bundle and the test runner live.
    private static var candidateFolders: [URL] {
        var folders: [URL] = []
        let bundle = Bundle.main.bundleURL
        folders.append(bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle)
        for test in Bundle.allBundles where test.bundleURL.pathExtension == "xctest" {
            folders.append(test.bundleURL.deletingLastPathComponent())
        }
        let executable = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
        folders.append(executable.deletingLastPathComponent())
        if let first = CommandLine.arguments.first {
            folders.append(URL(filePath: first).deletingLastPathComponent())
        }
        var seen = Set<String>()
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }
}
