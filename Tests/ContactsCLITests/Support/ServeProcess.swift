import Foundation
import Glibc

/// `contacts serve` running for one test on a free loopback port: started with the sandbox's
/// environment, its address read from what it prints, stopped with `SIGTERM`.
///
/// ```swift
/// let server = try ServeProcess(sandbox: sandbox)
/// let url = server.url            // http://127.0.0.1:PORT/
/// let log = try server.stop()     // exit status and standard error
/// ```
final class ServeProcess {
    /// How long the server may take to print its address.
    static let startTimeout: Duration = .seconds(30)

    /// The address the server printed for clients, such as `http://127.0.0.1:40123/`.
    let url: URL
    private let pid: pid_t
    private let output: URL
    private let errors: URL
    private var stopped: CLIResult?

    /// Starts `contacts serve --listen 127.0.0.1:0` plus `arguments` on the sandbox's store.
    ///
    /// - Throws: when the program cannot start, exits early or prints no address in time.
    init(sandbox: CLISandbox, arguments: [String] = [], environment: [String: String] = [:]) throws {
        var merged = sandbox.baseEnvironment
        for (key, value) in environment { merged[key] = value.isEmpty ? nil : value }
        let id = UUID().uuidString
        output = sandbox.root.appending(path: "serve-stdout-\(id)")
        errors = sandbox.root.appending(path: "serve-stderr-\(id)")
        let binary = try ContactsBinary.url().path(percentEncoded: false)
        pid = try ChildProcess.spawn(
            [binary, "serve", "--listen", "127.0.0.1:0"] + arguments, environment: merged, folder: sandbox.root,
            output: output.path(percentEncoded: false), errors: errors.path(percentEncoded: false))
        let clock = ContinuousClock()
        let deadline = clock.now + Self.startTimeout
        while true {
            let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let found = Self.address(in: printed) {
                url = found
                return
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid || clock.now > deadline {
                if clock.now > deadline { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0) }
                let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                throw StartFailure(description: "contacts serve printed no address: \(printed) \(log)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit {
        _ = try? stop()
    }

    /// A server that did not start.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The server's port.
    var port: Int { url.port ?? 0 }

    /// Sends `SIGTERM`, waits for the server to exit, and returns its status and output.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) throws -> CLIResult {
        if let stopped { return stopped }
        kill(pid, signal)
        return try waitForExit()
    }

    /// Sends a signal without waiting for the server to exit.
    func signal(_ number: Int32) {
        if stopped == nil { kill(pid, number) }
    }

    /// Waits for the server to exit of itself, without a signal, and returns its status and output.
    @discardableResult
    func waitForExit() throws -> CLIResult {
        if let stopped { return stopped }
        let status = try ChildProcess.wait(pid, program: "contacts serve")
        let result = CLIResult(
            status: status,
            stdout: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
        stopped = result
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: errors)
        return result
    }

    /// Waits (at most 10 s) until the server's standard error contains `text`; returns whether it did.
    func waitForLog(containing text: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !log.contains(text), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return log.contains(text)
    }

    /// What the server logged so far on standard error.
    var log: String {
        (try? String(contentsOf: errors, encoding: .utf8)) ?? stopped?.stderr ?? ""
    }

    /// The first `http://` address in `text` that names a port.
    private static func address(in text: String) -> URL? {
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) where word.hasPrefix("http://") {
            if let url = URL(string: String(word)), url.port != nil { return url }
        }
        return nil
    }
}
