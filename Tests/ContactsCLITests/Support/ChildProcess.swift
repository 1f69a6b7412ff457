import Foundation
import Glibc

/// Runs a program to completion with `posix_spawn` (in `folder` if given), its standard streams connected to files.
///
/// Unlike `Foundation.Process`, the child starts with no blocked signals and default signal
/// handlers: test threads block signals, and a tmux server started with them blocked would
/// pass that on to the terminal programs it runs.
enum ChildProcess {
    struct SpawnFailure: Error, CustomStringConvertible {
        var program: String
        var code: Int32
        var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
    }

    /// Runs `arguments` (the first is looked up in `PATH`) in `folder` with exactly
    /// `environment`, and returns the exit status (128 + signal number when killed).
    static func run(
        _ arguments: [String], environment: [String: String], folder: URL? = nil,
        input: String = "/dev/null", output: String = "/dev/null", errors: String = "/dev/null"
    ) throws -> Int32 {
        let pid = try spawn(arguments, environment: environment, folder: folder, input: input, output: output, errors: errors)
        return try wait(pid, program: arguments.first ?? "")
    }

    /// Starts `arguments` like ``run(_:environment:folder:input:output:errors:)`` without
    /// waiting for it; the caller waits with ``wait(_:program:)``.
    static func spawn(
        _ arguments: [String], environment: [String: String], folder: URL? = nil,
        input: String = "/dev/null", output: String = "/dev/null", errors: String = "/dev/null"
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // Glibc offers no portable "change folder" spawn action here, so a shell changes it.
        let command = folder.map { ["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", $0.path(percentEncoded: false)] + arguments }
            ?? arguments
        var argv = command.map { strdup($0) }
        argv.append(nil)
        var envp = environment.map { strdup("\($0.key)=\($0.value)") }
        envp.append(nil)
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let program = command.first ?? ""
        let code = program.contains("/")
            ? posix_spawn(&pid, program, &actions, &attributes, argv, envp)
            : posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnFailure(program: program, code: code) }
        return pid
    }

    /// Waits for a spawned child and returns its exit status (128 + signal number when killed).
    static func wait(_ pid: pid_t, program: String) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnFailure(program: program, code: errno) }
        }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
