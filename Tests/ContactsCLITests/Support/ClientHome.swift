import Foundation
import Glibc

/// A desktop client's private home inside a test's sandbox: `HOME` and the XDG config, data
/// and cache folders, so that a client the test runs reads and writes nothing of the machine's
/// user. Runs the client's driver script there, and ends the processes it left behind, found
/// by the home in their environment (also when the value goes away after a failure).
///
/// ```swift
/// let home = try ClientHome(sandbox: sandbox, name: "evolution")
/// let run = try home.run(["/usr/bin/python3", script.path, url, "kim", "sync", folder.path])
/// #expect(home.endLeftoverProcesses().isEmpty)
/// ```
final class ClientHome {
    /// How long a client's processes may take to exit after its driver did.
    static let exitTimeout: Duration = .seconds(5)

    let root: URL
    private let scratch: URL

    init(sandbox: CLISandbox, name: String) throws {
        root = sandbox.root.appending(path: name, directoryHint: .isDirectory)
        scratch = sandbox.temporary
        for folder in ["home", "config", "data", "cache"] {
            try FileManager.default.createDirectory(at: root.appending(path: folder), withIntermediateDirectories: true)
        }
    }

    deinit {
        _ = endLeftoverProcesses(waiting: .zero)
    }

    /// A folder inside the home.
    func folder(_ name: String) -> URL {
        root.appending(path: name, directoryHint: .isDirectory)
    }

    /// The environment of every run: only the home's folders, Debian's programs first on
    /// `PATH` (its `python3` has the GObject bindings), and UTF-8.
    var environment: [String: String] {
        [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "HOME": folder("home").path(percentEncoded: false),
            "XDG_CONFIG_HOME": folder("config").path(percentEncoded: false),
            "XDG_DATA_HOME": folder("data").path(percentEncoded: false),
            "XDG_CACHE_HOME": folder("cache").path(percentEncoded: false),
            "TMPDIR": scratch.path(percentEncoded: false),
        ]
    }

    /// Runs `arguments` with the home's environment plus `extra`, and returns its status and
    /// output.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> CLIResult {
        let id = UUID().uuidString
        let output = scratch.appending(path: "client-stdout-\(id)")
        let errors = scratch.appending(path: "client-stderr-\(id)")
        defer {
            for url in [output, errors] { try? FileManager.default.removeItem(at: url) }
        }
        let status = try ChildProcess.run(
            arguments, environment: environment.merging(extra) { $1 }, folder: root,
            output: output.path(percentEncoded: false), errors: errors.path(percentEncoded: false))
        return CLIResult(
            status: status,
            stdout: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    /// Waits up to `waiting` for the processes that run with this home to exit, kills those
    /// still running, and returns their names (empty when all had exited).
    @discardableResult
    func endLeftoverProcesses(waiting: Duration = exitTimeout) -> [String] {
        let clock = ContinuousClock()
        let deadline = clock.now + waiting
        while clock.now < deadline, !processes().isEmpty {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let left = processes()
        for (pid, _) in left { kill(pid, SIGKILL) }
        return left.map(\.name).sorted()
    }

    /// The running processes whose environment names this home's cache folder.
    private func processes() -> [(pid: pid_t, name: String)] {
        let marker = "XDG_CACHE_HOME=" + folder("cache").path(percentEncoded: false)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(),
                let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                environment.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == marker })
            else { return nil }
            let name = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)) ?? entry
            return (pid, name.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
