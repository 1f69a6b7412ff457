import Foundation
import Testing

/// Whether `tmux` is installed; the terminal tests run only then.
let tmuxAvailable = installed("tmux")

/// A command running in a real terminal: a detached tmux session on a private server.
///
/// The exit status of the command goes to a file, and so does the standard output of
/// `contacts`, so that the test reads what a script capturing `$(contacts pick)` would.
final class TmuxSession {
    let socket: String
    let outputFile: URL
    let statusFile: URL

    struct Timeout: Error, CustomStringConvertible {
        var waitingFor: String
        var screen: String
        var description: String { "timed out waiting for \(waitingFor); the screen shows:\n\(screen)" }
    }

    /// Starts `contacts` with `arguments` and `environment` in a 100 × 30 terminal.
    convenience init(sandbox: CLISandbox, arguments: [String], environment: [String: String] = [:]) throws {
        try self.init(
            sandbox: sandbox, program: [try ContactsBinary.url().path(percentEncoded: false)] + arguments,
            environment: environment, capturingOutput: true)
    }

    /// Starts any program (`["neomutt", "-F", muttrc]`, the program first) with the sandbox's
    /// environment and `environment` in a 100 × 30 terminal. With `capturingOutput`, its
    /// standard output goes to ``outputFile`` instead of the terminal.
    init(
        sandbox: CLISandbox, program: [String], environment: [String: String] = [:], capturingOutput: Bool = false
    ) throws {
        socket = sandbox.root.appending(path: "tmux.sock").path(percentEncoded: false)
        outputFile = sandbox.root.appending(path: "tmux-out.txt")
        statusFile = sandbox.root.appending(path: "tmux-status.txt")
        var variables = sandbox.baseEnvironment
        for (key, value) in environment { variables[key] = value }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(TmuxSession.quote($0.value))" }
        let command = "env -i " + assignments.joined(separator: " ") + " "
            + program.map(TmuxSession.quote).joined(separator: " ")
            + (capturingOutput ? " > " + TmuxSession.quote(outputFile.path(percentEncoded: false)) : "")
            + "; echo $? > " + TmuxSession.quote(statusFile.path(percentEncoded: false)) + "; sleep 60"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", command])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "0", "-l", text])
    }

    /// Presses keys by tmux name: `Enter`, `Down`, `Escape`.
    func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "0"] + keys)
    }

    /// The visible screen.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", "0"])
    }

    /// Waits until the screen shows `text`.
    func waitForScreen(containing text: String) throws {
        try wait(for: "\"\(text)\" on the screen") { try self.screen().contains(text) }
    }

    /// Waits for the command to end and returns its exit status and standard output.
    func waitForExit() throws -> (status: Int32, output: String) {
        try wait(for: "the command to end") {
            FileManager.default.fileExists(atPath: self.statusFile.path(percentEncoded: false))
                && !((try? String(contentsOf: self.statusFile, encoding: .utf8)) ?? "").isEmpty
        }
        let status = try String(contentsOf: statusFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (Int32(status) ?? -1, try String(contentsOf: outputFile, encoding: .utf8))
    }

    private func wait(for what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Timeout(waitingFor: what, screen: (try? screen()) ?? "")
    }

    /// Runs a tmux command and returns its output.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outputURL = URL(filePath: socket + "-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let environment = ProcessInfo.processInfo.environment.filter { $0.key == "PATH" || $0.key == "HOME" }
        _ = try ChildProcess.run(
            ["tmux", "-S", socket] + arguments, environment: environment.merging(["TERM": "xterm-256color"]) { $1 },
            output: outputURL.path(percentEncoded: false))
        return (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
