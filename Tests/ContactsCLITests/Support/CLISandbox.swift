import Foundation
import Testing

/// A fresh temporary folder for one test: a home, a temporary folder for `edit`, and the store
/// folder that `CONTACTS_DIR` names. Removed when the value goes away, unless
/// `CONTACTS_KEEP_SANDBOX` is set (to look at a failed run's stores and repositories).
final class CLISandbox {
    let root: URL
    let home: URL
    let temporary: URL
    /// The store folder (created by ``initStore()``).
    let store: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appending(path: "ContactsCLITests-\(UUID().uuidString)", directoryHint: .isDirectory)
        home = root.appending(path: "home", directoryHint: .isDirectory)
        temporary = root.appending(path: "tmp", directoryHint: .isDirectory)
        store = root.appending(path: "book", directoryHint: .isDirectory)
        for folder in [root, home, temporary] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    deinit {
        if ProcessInfo.processInfo.environment["CONTACTS_KEEP_SANDBOX"] != nil {
            print("kept the sandbox \(root.path(percentEncoded: false))")
            return
        }
        try? FileManager.default.removeItem(at: root)
    }

    /// The environment every run gets: no editor, no inherited store, a private home and
    /// temporary folder.
    var baseEnvironment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path(percentEncoded: false),
            "TMPDIR": temporary.path(percentEncoded: false),
            "CONTACTS_DIR": store.path(percentEncoded: false),
            "LANG": "C.UTF-8",
        ]
    }

    /// Runs `contacts` with `arguments`; `environment` values are added to the base ones (an
    /// empty value removes a variable). Standard input is `/dev/null` unless `input` is given.
    /// It runs in `folder`, else in the sandbox's root. With `measuringPeak`, the result has the run's peak memory, measured by
    /// `plaincontacts-crash-helper measure` (a child of the test runner would be charged the
    /// runner's own).
    @discardableResult
    func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, measuringPeak: Bool = false,
        in folder: URL? = nil
    ) throws -> CLIResult {
        var merged = baseEnvironment
        for (key, value) in environment { merged[key] = value.isEmpty ? nil : value }
        let id = UUID().uuidString
        let outURL = root.appending(path: "stdout-\(id)")
        let errURL = root.appending(path: "stderr-\(id)")
        let inURL = root.appending(path: "stdin-\(id)")
        defer {
            for url in [outURL, errURL, inURL] { try? FileManager.default.removeItem(at: url) }
        }
        if let input { try Data(input.utf8).write(to: inURL) }
        let peakURL = root.appending(path: "peak-\(id)")
        defer { try? FileManager.default.removeItem(at: peakURL) }
        let measuring = measuringPeak ? [try ContactsBinary.helperURL().path(percentEncoded: false), "measure", peakURL.path(percentEncoded: false)] : []
        let pid = try ChildProcess.spawn(
            measuring + [try ContactsBinary.url().path(percentEncoded: false)] + arguments, environment: merged, folder: folder ?? root,
            input: input == nil ? "/dev/null" : inURL.path(percentEncoded: false),
            output: outURL.path(percentEncoded: false), errors: errURL.path(percentEncoded: false))
        let status = try ChildProcess.wait(pid, program: "contacts")
        let peak = measuringPeak ? (try? String(contentsOf: peakURL, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } : nil
        return CLIResult(
            status: status,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8),
            peakKilobytes: peak ?? 0)
    }

    /// Runs `contacts` and requires exit status 0.
    @discardableResult
    func succeed(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        let result = try run(arguments, environment: environment)
        try #require(result.status == 0, "contacts \(arguments.joined(separator: " ")) failed: \(result)")
        return result
    }

    /// Creates the store.
    func initStore() throws {
        try succeed(["init"])
    }

    /// Adds a person with `contacts add` and returns the printed record ID.
    @discardableResult
    func add(_ arguments: [String]) throws -> String {
        let result = try succeed(["add"] + arguments)
        let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(Int(id) != nil, "add printed \(result.stdout)")
        return id
    }

    /// The JSON view of a person, parsed.
    func json(_ id: String) throws -> [String: Any] {
        let result = try succeed(["show", id, "--json"])
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// A file of the store, by relative path.
    func storeFile(_ relative: String) -> URL {
        store.appending(path: relative)
    }

    /// The names of the files in a folder of the store, sorted.
    func storeFiles(in relative: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: storeFile(relative).path(percentEncoded: false)).sorted()
    }

    /// Every file of the store outside `.contacts/`, with its bytes.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = store.path(percentEncoded: false)
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return files }
        for case let path as String in enumerator where !path.hasPrefix(".contacts") {
            var isFolder: ObjCBool = false
            let full = base + "/" + path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = FileManager.default.contents(atPath: full)
            }
        }
        return files
    }

    /// Writes a shell script into the sandbox and returns a command that runs it, for
    /// `$EDITOR` and `$VISUAL`.
    func script(_ name: String, _ body: String) throws -> String {
        let url = root.appending(path: name)
        try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path(percentEncoded: false))
        // Run by `sh` rather than executed: a file just written can fail to execute with
        // ETXTBSY while another test's child process still holds the writing descriptor.
        return "sh '\(url.path(percentEncoded: false))'"
    }
}
