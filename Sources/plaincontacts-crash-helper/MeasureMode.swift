import Glibc

/// The `measure` subcommand: runs a program and reports the most memory it held.
///
/// A test that wants a child's peak memory cannot take it from its own `wait4`: a child
/// started with `posix_spawn` shares the test process's memory until it executes its program,
/// and the kernel counts the test process's high-water mark as the child's (`ru_maxrss` of a
/// child spawned by a test runner holding 400 MB is 400 MB, whatever the child used). This
/// program holds a few megabytes; the program it starts counts from there.
enum MeasureMode {
    /// Runs `command` (a path and its arguments) with this process's standard streams and
    /// environment, writes its resident high-water mark in kilobytes and a newline to `report`,
    /// and returns its exit status (128 + the signal number when killed).
    static func run(report: String, command: [String]) -> Int32 {
        guard let program = command.first else { return 64 }
        var argv = command.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, program, nil, nil, argv, environ)
        guard code == 0 else {
            emit("plaincontacts-crash-helper: cannot start \(program): \(String(cString: strerror(code)))", to: STDERR_FILENO)
            return 1
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return 1 }
        }
        let descriptor = open(report, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return 1 }
        emit("\(usage.ru_maxrss)", to: descriptor)
        close(descriptor)
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
