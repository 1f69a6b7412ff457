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
        withTerminalKeysLeftToTheChild {
            guard let pid = spawn(arguments, output: output) else { return nil }
            return wait(for: pid, options: 0)
        }
    }

    /// Runs `arguments` with its standard output read into memory, its standard input and
    /// error shared with this process (so that a program such as `pass` can ask for a
    /// passphrase), and returns its exit status with the first `limit` bytes it wrote; `nil`
    /// when it could not be started.
    ///
    /// Output past `limit` is read and dropped, so the child never blocks on a full pipe; the
    /// reading ends when the child has exited, even if a program it started in the background
    /// (an agent) still holds the pipe open.
    static func capture(_ arguments: [String], keeping limit: Int) -> (status: Int32, output: [UInt8])? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        // Neither end may reach the child except as its standard output (Glibc's module has
        // no `pipe2`).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        return withTerminalKeysLeftToTheChild {
            let pid = spawn(arguments, output: .inherit, standardOutput: writeEnd)
            close(writeEnd)
            guard let pid else { return nil }
            var output: [UInt8] = []
            while true {
                let isOpen = read(readEnd, into: &output, keeping: limit, waiting: 100)
                if let status = wait(for: pid, options: WNOHANG) {
                    while read(readEnd, into: &output, keeping: limit, waiting: 0) {}
                    return (status, output)
                }
                if !isOpen {
                    return wait(for: pid, options: 0).map { ($0, output) }
                }
            }
        }
    }

    /// Runs `body` while this process ignores the terminal's interrupt and quit keys.
    private static func withTerminalKeysLeftToTheChild<Result>(_ body: () -> Result) -> Result {
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        return body()
    }

    /// Starts `arguments` with default interrupt and quit handling and no blocked signals;
    /// returns its process ID, or `nil` when it could not be started.
    /// `standardOutput`, if given, replaces the child's standard output.
    private static func spawn(_ arguments: [String], output: Output, standardOutput: Int32? = nil) -> pid_t? {
        guard !arguments.isEmpty else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if case .discard = output {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, STDOUT_FILENO)
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

        var cArguments = arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, &attributes, cArguments, environ) == 0 else { return nil }
        return pid
    }

    /// Waits for the child `pid` and returns its exit status (128 + the signal's number when
    /// a signal ended it); `nil` when waiting fails, or, with `WNOHANG`, while it still runs.
    private static func wait(for pid: pid_t, options: Int32) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, options)
            if result == pid { break }
            if result < 0, errno == EINTR { continue }
            return nil
        }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// Waits up to `milliseconds` for `descriptor` to be readable and reads what is there,
    /// keeping `output` at most `limit` bytes long. Returns whether there may be more: `false`
    /// at the end of the input, on an error, and when nothing came within a zero wait.
    private static func read(
        _ descriptor: Int32, into output: inout [UInt8], keeping limit: Int, waiting milliseconds: Int32
    ) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, milliseconds)
        if ready < 0 { return errno == EINTR }
        if ready == 0 { return milliseconds > 0 }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR }
        output.append(contentsOf: buffer[0..<min(count, max(0, limit - output.count))])
        return count > 0
    }
}
