import Foundation
import Testing

/// Git repositories holding stores, for the tests of the Git workflow: real `git` runs with a
/// fixed identity, no system or user configuration, and the built `contacts` first on `PATH`
/// so that the merge driver and diff converter `contacts git-setup` configures are found.
struct GitRepositories {
    let sandbox: CLISandbox

    /// The environment of every `git` and `contacts` run.
    var environment: [String: String] {
        get throws {
            let binaryFolder = try ContactsBinary.url().deletingLastPathComponent().path(percentEncoded: false)
            return [
                "PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
                "GIT_COMMITTER_NAME": "Test Committer", "GIT_COMMITTER_EMAIL": "committer@example.com",
                "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
            ]
        }
    }

    /// A folder inside the sandbox.
    func folder(_ name: String) -> URL {
        sandbox.root.appending(path: name, directoryHint: .isDirectory)
    }

    /// The store of a repository: `<repository>/book`.
    func store(_ repository: URL) -> URL {
        repository.appending(path: "book", directoryHint: .isDirectory)
    }

    /// Runs `git` in `directory` and requires exit status 0 unless `allowFailure`.
    @discardableResult
    func git(_ arguments: [String], in directory: URL, allowFailure: Bool = false) throws -> CLIResult {
        var merged = sandbox.baseEnvironment
        for (key, value) in try environment { merged[key] = value }
        let result = try runProcess(
            URL(filePath: "/usr/bin/env"), ["git"] + arguments, environment: merged, in: directory, scratch: sandbox.temporary)
        if !allowFailure {
            try #require(result.status == 0, "git \(arguments.joined(separator: " ")) failed: \(result)")
        }
        return result
    }

    /// Runs `contacts` on the store of `repository`.
    @discardableResult
    func contacts(_ arguments: [String], in repository: URL) throws -> CLIResult {
        var variables = try environment
        variables["CONTACTS_DIR"] = store(repository).path(percentEncoded: false)
        return try sandbox.run(arguments, environment: variables)
    }

    /// Runs `contacts` on the store of `repository` and requires exit status 0.
    @discardableResult
    func succeed(_ arguments: [String], in repository: URL) throws -> CLIResult {
        let result = try contacts(arguments, in: repository)
        try #require(result.status == 0, "contacts \(arguments.joined(separator: " ")) failed: \(result)")
        return result
    }

    /// Adds a person and returns the printed record ID.
    @discardableResult
    func add(_ arguments: [String], in repository: URL) throws -> String {
        try succeed(["add"] + arguments, in: repository).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A JSON object printed by `contacts`.
    func json(_ arguments: [String], in repository: URL) throws -> [String: Any] {
        let text = try succeed(arguments, in: repository).stdout
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A new repository named `name` holding an empty store in `book/`, committed.
    func makeRepository(_ name: String) throws -> URL {
        let repository = folder(name)
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        try git(["init", "--quiet", "--initial-branch=main"], in: repository)
        try succeed(["init"], in: repository)
        try commitAll("Create the store", in: repository)
        return repository
    }

    /// A bare clone of `repository` named `name`, to push to and pull from.
    func bareClone(_ repository: URL, as name: String) throws -> URL {
        try git(["clone", "--quiet", "--bare", repository.path(percentEncoded: false), name], in: sandbox.root)
        return folder(name)
    }

    /// Clones `origin` into a new folder `name` and configures it with `contacts git-setup`.
    func clone(_ origin: URL, as name: String) throws -> URL {
        try git(["clone", "--quiet", origin.path(percentEncoded: false), name], in: sandbox.root)
        let repository = folder(name)
        try succeed(["git-setup"], in: repository)
        return repository
    }

    /// Stages and commits everything.
    func commitAll(_ message: String, in repository: URL) throws {
        try git(["add", "-A"], in: repository)
        try git(["commit", "--quiet", "-m", message], in: repository)
    }

    /// A file of the store of `repository`, as text.
    func read(_ relative: String, in repository: URL) throws -> String {
        try String(contentsOf: store(repository).appending(path: relative), encoding: .utf8)
    }

    /// The file of the person with record ID `id`, relative to the store.
    func personFile(_ id: String, in repository: URL) throws -> String {
        let folder = store(repository).appending(path: "people")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
        where name.hasSuffix(".json") {
            let text = try String(contentsOf: folder.appending(path: name), encoding: .utf8)
            if text.contains("\n  \"id\": \(id),\n") { return "people/" + name }
        }
        throw Missing(what: "person \(id)")
    }

    struct Missing: Error { var what: String }
}

/// Runs a program in `directory` and collects its exit status and output (through files in
/// `scratch`, kept out of the repositories).
func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String], in directory: URL, scratch: URL
) throws -> CLIResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = directory
    let id = UUID().uuidString
    let outURL = scratch.appending(path: "out-\(id)")
    let errURL = scratch.appending(path: "err-\(id)")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    let output = try FileHandle(forWritingTo: outURL)
    let errors = try FileHandle(forWritingTo: errURL)
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()
    process.waitUntilExit()
    try output.close()
    try errors.close()
    return CLIResult(
        status: process.terminationStatus,
        stdout: try String(contentsOf: outURL, encoding: .utf8),
        stderr: try String(contentsOf: errURL, encoding: .utf8))
}
