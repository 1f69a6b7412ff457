import Glibc
import PlainContacts
import PlainContactsDAV

/// `contacts serve` as a supervisor: it binds the listening sockets, runs the server in a
/// child process (this same program, started again with the same arguments), and when a
/// request's handling crashes that process, logs the requests it was handling and starts
/// another at once, on the same sockets.
///
/// The server process inherits the listening sockets as descriptors 3, 4, … (as systemd's
/// `LISTEN_FDS` does; their count in ``listenDescriptorsVariable``) and, after them, the
/// ``HTTPRequestJournal`` it marks each request in (its number in
/// ``journalDescriptorVariable``). While no server process accepts, clients
/// wait in the sockets' backlog instead of being refused, and the port stays the same.
///
/// `SIGINT` and `SIGTERM` are passed on to the server process, which stops after the requests
/// in progress are answered; the supervisor then ends with status 0. A server process that
/// exits of itself (a start-up error) ends the supervisor with its exit status.
///
/// ```swift
/// let status = try ServeSupervisor(host: "127.0.0.1", port: 5232, environment: environment, console: console).run()
/// ```
final class ServeSupervisor {
    /// Set (to `1`) in the server process's environment: it serves on what it inherited.
    static let workerVariable = "CONTACTS_SERVE_WORKER"
    /// The number of listening sockets the server process inherited, from descriptor 3 on.
    static let listenDescriptorsVariable = "CONTACTS_SERVE_LISTEN_FDS"
    /// The descriptor of the request journal the server process inherited, after the
    /// listening sockets; unset when the system could not make one.
    static let journalDescriptorVariable = "CONTACTS_SERVE_JOURNAL_FD"
    /// Set (to `1`) for a server process started after a crash: it prints no banner again.
    static let restartVariable = "CONTACTS_SERVE_RESTARTED"
    /// The first descriptor a server process inherits, after standard input, output and error.
    static let firstInheritedDescriptor: Int32 = 3
    /// The lowest descriptor the inherited ones are parked at before a server process starts,
    /// above the numbers they are given there, so that one never overwrites another.
    static let parkingDescriptorFloor: Int32 = 64
    /// The crashes within ``crashWindow`` that stop the supervisor: 5 in a row means a request
    /// clients keep retrying, or a broken start, rather than a rare fault; restarting forever
    /// would hide it.
    static let maxCrashes = 5
    /// The time ``maxCrashes`` are counted over.
    static let crashWindow = Duration.seconds(60)
    /// How often the supervisor looks for the server process's end in case a `SIGCHLD` was
    /// missed, in milliseconds: 1 s costs nothing.
    static let pollIntervalMilliseconds: Int32 = 1000
    /// The signals passed on to the server process.
    static let forwardedSignals = [SIGINT, SIGTERM]

    /// How a server process ended.
    enum Termination: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)

        /// The termination a `waitpid` status tells.
        init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        }
    }

    private let host: String
    private let port: UInt16
    private let environment: [String: String]
    private let console: Console
    /// The descriptors the server process inherits, in order, parked above
    /// ``parkingDescriptorFloor``.
    private var inherited: [Int32] = []
    /// The number of listening sockets among ``inherited``.
    private var listenerCount = 0
    /// The requests the server process is handling; `nil` when the system cannot share one.
    private var journal: HTTPRequestJournal?

    /// A supervisor for `contacts serve` on `host` and `port`, starting server processes with
    /// `environment` and logging on `console`.
    init(host: String, port: UInt16, environment: [String: String], console: Console) {
        self.host = host
        self.port = port
        self.environment = environment
        self.console = console
    }

    deinit {
        inherited.forEach { _ = close($0) }
    }

    /// Binds the sockets and runs server processes until one exits or the supervisor is
    /// stopped; returns the exit status to end with.
    ///
    /// - Throws: the errors of ``ContactsServer/openListeningSockets(host:port:log:)``
    ///   (`busy`, `permissionDenied`, `invalidValue`); ``ContactsError/Code/io`` when the
    ///   signals cannot be watched or no server process can be started.
    func run() throws -> ExitStatus {
        let console = console
        let stream = JournalStream(environment: environment)
        let sockets = try ContactsServer.openListeningSockets(host: host, port: port) { line in
            console.note(stream.line(line))
        }
        journal = try? HTTPRequestJournal()
        let descriptors = sockets.descriptors + (journal.map { [$0.descriptor] } ?? [])
        listenerCount = sockets.descriptors.count
        inherited = descriptors.map { fcntl($0, F_DUPFD_CLOEXEC, Self.parkingDescriptorFloor) }
        sockets.descriptors.forEach { _ = close($0) }
        guard inherited.allSatisfy({ $0 >= 0 }) else { throw ContactsError(.io, "cannot pass the listening sockets on") }
        guard let relay = SupervisorSignalRelay.shared else { throw ContactsError(.io, "cannot watch for signals") }
        relay.relay(Self.forwardedSignals + [SIGCHLD])
        return try supervise(relay: relay)
    }

    /// Starts server processes and waits for them, restarting after each crash.
    private func supervise(relay: SupervisorSignalRelay) throws -> ExitStatus {
        let stream = JournalStream(environment: environment)
        var worker = try startWorker(restarted: false)
        var stopping = false
        var crashes: [ContinuousClock.Instant] = []
        while true {
            var request = pollfd(fd: relay.readDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&request, 1, Self.pollIntervalMilliseconds)
            for number in relay.drain() where Self.forwardedSignals.contains(number) {
                stopping = true
                kill(worker, number)
            }
            var status: Int32 = 0
            let ended = waitpid(worker, &status, WNOHANG)
            if ended < 0, errno != EINTR { throw ContactsError(.io, "lost the server process (errno \(errno))") }
            guard ended == worker else { continue }
            switch Termination(waitStatus: status) {
            case .exited(let code):
                return ExitStatus(rawValue: code) ?? .failure
            case .signaled(let number) where stopping:
                if !Self.forwardedSignals.contains(number) { logCrash(signal: number, restarting: false) }
                return .success
            case .signaled(let number):
                let now = ContinuousClock.now
                crashes = crashes.filter { now - $0 < Self.crashWindow } + [now]
                let restarting = crashes.count < Self.maxCrashes
                logCrash(signal: number, restarting: restarting)
                guard restarting else {
                    console.note(
                        stream.line("stopping: the server process crashed \(crashes.count) times within "
                            + "\(Self.crashWindow.components.seconds) s (exit status 70)"))
                    return .software
                }
                worker = try startWorker(restarted: true)
                console.note(stream.line("started a new server process (pid \(worker))"))
            }
        }
    }

    /// Logs the end of a server process by `signal`: one line per request it was handling
    /// (method and path, as the request log names them), or one line without any; then empties
    /// the journal for the next process.
    private func logCrash(signal number: Int32, restarting: Bool) {
        let cause = "signal \(number)" + (Self.signalNames[number].map { ", \($0)" } ?? "")
        let ending = restarting ? "; restarting" : ""
        let entries = journal?.inFlight() ?? []
        let journalStream = JournalStream(environment: environment)
        if entries.isEmpty {
            console.note(journalStream.line("the server process stopped (\(cause)) with no request in progress\(ending)"))
        }
        for entry in entries {
            console.note(journalStream.line("a request's handling stopped the server process (\(cause)): \(entry.method) \(entry.path)\(ending)"))
        }
        journal?.reset()
    }

    /// The names of the signals a crash ends a process with.
    static let signalNames: [Int32: String] = [
        SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
        SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP",
    ]

    /// Starts a server process: this program with the same arguments, the inherited
    /// descriptors from 3 on, the signals this supervisor handles back at their defaults.
    ///
    /// - Throws: ``ContactsError/Code/io`` when it cannot be started.
    private func startWorker(restarted: Bool) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (index, descriptor) in inherited.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, Self.firstInheritedDescriptor + Int32(index))
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in Self.forwardedSignals + [SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var variables = environment
        variables[Self.workerVariable] = "1"
        variables[Self.listenDescriptorsVariable] = String(listenerCount)
        variables[Self.journalDescriptorVariable] = journal.map { _ in String(Self.firstInheritedDescriptor + Int32(listenerCount)) }
        variables[Self.restartVariable] = restarted ? "1" : nil
        var cEnvironment = variables.map { strdup("\($0.key)=\($0.value)") }
        cEnvironment.append(nil)
        var cArguments = CommandLine.arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else {
            throw ContactsError(.io, "cannot start the server process", underlying: SystemCallError(call: "posix_spawn", errno: result))
        }
        return pid
    }
}
