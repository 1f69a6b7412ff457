import Foundation
import Glibc

/// Runs `git` in a folder and captures what it prints, for the commands that read a store's
/// history or commit to it.
enum GitRunner {
    /// What one run of `git` did.
    struct Result {
        var status: Int32
        var output: Data
        var errors: String
        /// Whether Git was killed for taking longer than the run's timeout.
        var timedOut = false

        /// Standard output as text.
        var text: String { String(decoding: output, as: UTF8.self) }

        /// The first line Git wrote to standard error, for messages.
        var firstError: String {
            errors.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
        }
    }

    /// Runs `git -C folder arguments…` and waits for it, with `input` on its standard input
    /// (from a temporary file only this user may read: a Git that stops reading cannot raise
    /// `SIGPIPE` here, and no one else reads a card in it) and
    /// `environment` added to this process's.
    ///
    /// Git still running after `timeout` is killed, and the result says so (``Result/timedOut``):
    /// for a push to a host that stopped answering.
    ///
    /// - Throws: exit status 1 when Git is not installed or cannot be started.
    static func run(
        _ arguments: [String], in folder: URL, input: Data? = nil, environment added: [String: String] = [:],
        timeout: Duration? = nil
    ) throws(CLIError) -> Result {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder.path(percentEncoded: false)] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_PAGER"] = "cat"
        environment.merge(added) { _, new in new }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let scratch = FileManager.default.temporaryDirectory.appending(path: "contacts-git-\(UUID().uuidString)")
        let errorsURL = scratch.appendingPathExtension("err")
        let inputURL = scratch.appendingPathExtension("in")
        defer {
            try? FileManager.default.removeItem(at: errorsURL)
            if input != nil { try? FileManager.default.removeItem(at: inputURL) }
        }
        do {
            try Data().write(to: errorsURL)
            let errors = try FileHandle(forWritingTo: errorsURL)
            defer { try? errors.close() }
            process.standardError = errors
            var inputFile: FileHandle?
            if let input {
                try writePrivately(input, to: inputURL)
                inputFile = try FileHandle(forReadingFrom: inputURL)
                process.standardInput = inputFile
            }
            defer { try? inputFile?.close() }
            try process.run()
        } catch {
            throw CLIError.failure("cannot run Git (\(error))")
        }
        let watchdog = timeout.map { ProcessWatchdog(pid: process.processIdentifier, after: $0) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let timedOut = watchdog?.disarm() ?? false
        let errors = (try? String(contentsOf: errorsURL, encoding: .utf8)) ?? ""
        if process.terminationStatus == 127 {
            throw CLIError.failure("Git is not installed (no `git` on PATH)")
        }
        return Result(status: process.terminationStatus, output: data, errors: errors, timedOut: timedOut)
    }

    /// Writes `data` to a new file that only this user may read (mode 0600 from its creation).
    ///
    /// - Throws: a `CocoaError` when the file cannot be created or written.
    private static func writePrivately(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path(percentEncoded: false), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try file.write(contentsOf: data)
        try file.close()
    }

    /// The most versions of a file ``history(of:in:)`` reads.
    static let historyLimit = 50

    /// The committed versions of a file of `folder` (a path relative to it), newest first, at
    /// most ``historyLimit``; none when the folder is not in a Git work tree or Git fails.
    static func history(of path: String, in folder: URL) -> [Data] {
        guard let log = try? run(["log", "--format=%H", "--max-count=\(historyLimit)", "--", path], in: folder), log.status == 0
        else { return [] }
        return log.text.split(separator: "\n").compactMap { commit in
            guard let shown = try? run(["show", "\(commit):./\(path)"], in: folder), shown.status == 0 else { return nil }
            return shown.output
        }
    }

    /// Whether `folder` is inside a Git work tree.
    static func isWorkTree(_ folder: URL) throws(CLIError) -> Bool {
        let result = try run(["rev-parse", "--is-inside-work-tree"], in: folder)
        return result.status == 0 && result.text.hasPrefix("true")
    }

    /// `text` quoted for the shell Git runs helper commands with.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The path of the running `contacts` executable, so that Git can call it back even when it
    /// is not on `PATH`.
    static var executablePath: String {
        let link = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().path(percentEncoded: false)
        if link != "/proc/self/exe" { return link }
        return CommandLine.arguments.first ?? "contacts"
    }
}
