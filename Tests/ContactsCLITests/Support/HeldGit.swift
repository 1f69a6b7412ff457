import Foundation
import Testing

/// A `git` first on `PATH` that a test can hold, as a slow or hung Git would be: while the gate
/// file exists, `git commit-tree` waits; while the failure file exists, the next `git
/// commit-tree` fails (and removes it). Every other command, and `commit-tree` once let go, runs
/// the real Git.
struct HeldGit {
    /// The folder of the wrapper, to put first on `PATH`.
    let folder: URL
    /// While it exists, `commit-tree` waits.
    let gate: URL
    /// Created when a `commit-tree` reaches the gate.
    let held: URL
    /// While it exists, the next `commit-tree` fails.
    let failure: URL
    /// The real Git.
    let realGit: String

    /// A wrapper in `sandbox`, wrapping the first `git` on this process's `PATH`.
    init(sandbox: CLISandbox) throws {
        folder = sandbox.root.appending(path: "held-git", directoryHint: .isDirectory)
        gate = sandbox.root.appending(path: "git-gate")
        held = sandbox.root.appending(path: "git-held")
        failure = sandbox.root.appending(path: "git-fails")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        realGit = try #require(
            path.split(separator: ":").map { String($0) + "/git" }.first { FileManager.default.isExecutableFile(atPath: $0) },
            "no git on PATH")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            for argument in "$@"; do
              if [ "$argument" = "commit-tree" ]; then
                : > "$CONTACTS_TEST_GIT_HELD"
                while [ -e "$CONTACTS_TEST_GIT_GATE" ]; do sleep 0.02; done
                if [ -e "$CONTACTS_TEST_GIT_FAILS" ]; then
                  rm -f "$CONTACTS_TEST_GIT_FAILS"
                  echo "fatal: the test's Git fails this commit" >&2
                  exit 1
                fi
                break
              fi
            done
            exec "$CONTACTS_TEST_REAL_GIT" "$@"

            """
        let wrapper = folder.appending(path: "git")
        try Data(script.utf8).write(to: wrapper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path(percentEncoded: false))
    }

    /// `environment` with the wrapper first on its `PATH` and the variables the wrapper reads.
    func environment(_ environment: [String: String]) -> [String: String] {
        var result = environment
        result["PATH"] = folder.path(percentEncoded: false) + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        result["CONTACTS_TEST_GIT_GATE"] = gate.path(percentEncoded: false)
        result["CONTACTS_TEST_GIT_HELD"] = held.path(percentEncoded: false)
        result["CONTACTS_TEST_GIT_FAILS"] = failure.path(percentEncoded: false)
        result["CONTACTS_TEST_REAL_GIT"] = realGit
        return result
    }

    /// Holds every `commit-tree` from now on.
    func hold() throws {
        try Data().write(to: gate)
    }

    /// Lets the held `commit-tree` run.
    func release() throws {
        try FileManager.default.removeItem(at: gate)
    }

    /// Has the next `commit-tree` fail.
    func failNext() throws {
        try Data().write(to: failure)
    }

    /// Whether a `commit-tree` is held at the gate: waits (at most 30 s) for one to arrive.
    func waitForHeldCommit() -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: held.path(percentEncoded: false)), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return FileManager.default.fileExists(atPath: held.path(percentEncoded: false))
    }

    /// Whether the gate is still closed.
    var isHolding: Bool {
        FileManager.default.fileExists(atPath: gate.path(percentEncoded: false))
    }
}
