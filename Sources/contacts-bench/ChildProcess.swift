import Foundation
import PlainContacts
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a program and reports its exit status, wall time and peak resident memory, as
/// `wait4` measures them.
enum ChildProcess {
    /// What to do with the child's standard output.
    enum Output {
        /// Keep the parent's standard output.
        case inherit
        /// Send it to `/dev/null`.
        case discard
        /// Send standard output and standard error to `/dev/null`.
        case discardAll
        /// Write standard output to this file (created or truncated), standard error to
        /// `/dev/null`.
        case file(String)
    }

    /// How a child ended.
    struct Result {
        /// The exit status, or 128 plus the signal number.
        var status: Int32
        /// From spawn to exit.
        var seconds: Double
        /// `ru_maxrss` of the child and its waited-for descendants, in kilobytes.
        var maxResidentKilobytes: Int
        /// CPU time the child spent in user mode and in the kernel, in seconds.
        var userSeconds: Double = 0
        var systemSeconds: Double = 0

        /// The child's own time: CPU in user mode and in the kernel, not time spent waiting.
        var cpuSeconds: Double { userSeconds + systemSeconds }
    }

    /// The full path of a program found on `$PATH`, or `nil`.
    static func findExecutable(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts `executable` with `arguments`, its output discarded, without waiting for it:
    /// with every signal unblocked and at its default action, whatever this process blocks
    /// (a test runner blocks some, and a browser's driver then hangs).
    ///
    /// - Returns: The child's process ID; end it with `kill` and ``wait(for:)``.
    /// - Throws: ``ContactsError/Code/io`` when the program cannot be started.
    static func start(_ executable: String, _ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        return try spawn(executable, arguments, actions: &actions)
    }

    /// Starts `executable` with `arguments` and the file actions given, every signal unblocked
    /// and at its default action.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the program cannot be started.
    private static func spawn(
        _ executable: String, _ arguments: [String], actions: inout posix_spawn_file_actions_t
    ) throws -> pid_t {
        var attributes = defaultSignals()
        defer { posix_spawnattr_destroy(&attributes) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = argv.withUnsafeBufferPointer { buffer in
            guard let arguments = buffer.baseAddress else { return EINVAL }
            return posix_spawn(&pid, executable, &actions, &attributes, arguments, environ)
        }
        guard spawned == 0 else {
            throw ContactsError(.io, "cannot start the program (error \(spawned))", path: executable)
        }
        return pid
    }

    /// Spawn attributes that give the child every signal unblocked and at its default action,
    /// whatever this process blocks or ignores; destroy them after the spawn.
    private static func defaultSignals() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }

    /// Waits for a child ``start(_:_:)`` started to end.
    static func wait(for pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// Runs `executable` with `arguments` and waits for it; the child starts with every signal
    /// unblocked and at its default action, whatever this process blocks (a test runner).
    ///
    /// - Throws: ``ContactsError/Code/io`` when the program cannot be started.
    static func run(_ executable: String, _ arguments: [String], output: Output) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch output {
        case .inherit: break
        case .discard:
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        case .discardAll:
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let pid = try spawn(executable, arguments, actions: &actions)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                throw ContactsError(.io, "cannot wait for the program (error \(errno))", path: executable)
            }
        }
        let elapsed = clock.now - start
        let signal = status & 0x7f
        let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return Result(
            status: exitStatus, seconds: elapsed.seconds, maxResidentKilobytes: Int(usage.ru_maxrss),
            userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime))
    }
}
