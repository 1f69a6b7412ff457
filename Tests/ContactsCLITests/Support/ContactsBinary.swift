import Foundation

/// The built `contacts` executable, found in the build products folder beside the test bundle.
///
/// `swift build --build-tests` builds it because the test target depends on it. Set
/// `CONTACTS_BINARY` to test another build.
enum ContactsBinary {
    struct Missing: Error, CustomStringConvertible {
        var name: String
        var searched: [String]
        var description: String {
            "the `\(name)` executable was not found; build it with `swift build --build-tests` "
                + "(or set CONTACTS_BINARY). Looked in: " + searched.joined(separator: ", ")
        }
    }

    static func url() throws -> URL {
        try url(named: "contacts", environment: ProcessInfo.processInfo.environment["CONTACTS_BINARY"])
    }

    /// The built `plaincontacts-crash-helper`, whose `measure` runs a program and reports its
    /// peak memory.
    static func helperURL() throws -> URL {
        try url(named: "plaincontacts-crash-helper", environment: nil)
    }

    /// The built `contacts-install`.
    static func installerURL() throws -> URL {
        try url(named: "contacts-install", environment: nil)
    }

    /// An executable of the build products folder, or the one `environment` names.
    private static func url(named name: String, environment: String?) throws -> URL {
        let candidates = candidateFolders.map { $0.appending(path: name) }
        for candidate in [environment.map { URL(filePath: $0) }].compactMap({ $0 }) + candidates
        where FileManager.default.isExecutableFile(atPath: candidate.path(percentEncoded: false)) {
            return candidate
        }
        throw Missing(name: name, searched: candidates.map { $0.path(percentEncoded: false) })
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
