import Glibc

/// Runs another program and waits for it, with `posix_spawnp`.
///
/// The child shares the terminal and the process group, so an editor can take over the
/// terminal; while it runs, this process ignores the terminal's interrupt and quit keys, as
/// shells and Git do, and leaves them to the child.
enum Subprocess {
    /// How the child's standard output and error are connected.
    enum Output {
        /// To this process's.
        case inherit
        /// To `/dev/null`.
        case discard
    }

    /// Runs `arguments` (the first is the program, looked up in `PATH`) and returns its exit
    /// status, or `nil` when it could not be started.
    static func run(_ arguments: [String], output: Output = .inherit) -> Int32? {
        guard !arguments.isEmpty else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if case .discard = output {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }

        var cArguments = arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, cArguments, environ)
        guard spawned == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }
}
