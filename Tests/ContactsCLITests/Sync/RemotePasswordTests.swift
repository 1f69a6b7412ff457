import Dispatch
import Foundation
import Glibc
import PlainContacts
import PlainContactsDAV
import Synchronization
import Testing
@testable import contacts

/// A remote of `user` (none: no sign-in) with an optional password command.
private func remote(user: String? = "kim", command: String? = nil) throws -> RemoteSettings {
    RemoteSettings(
        name: try RemoteName("dav"), url: try RemoteSettings.collectionURL(from: "https://dav.example.com/"), user: user,
        passwordCommand: command)
}

/// A password lookup with `environment` and a "terminal" that is not one, as when no terminal
/// is at hand.
private func lookup(_ environment: [String: String] = [:]) -> RemotePassword {
    var password = RemotePassword(environment: environment)
    password.terminalPath = "/dev/null"
    return password
}

/// The exit status `body` fails with, or `nil` when it succeeds.
private func failureStatus(_ body: () throws(CLIError) -> String?) -> Int32? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.status.rawValue
    }
}

@Suite struct RemotePasswordTests {
    @Test func aRemoteWithoutAUserNeedsNoPassword() throws {
        let password = lookup(["CONTACTS_REMOTE_PASSWORD": "secret"])
        let open = try remote(user: nil)

        #expect(password.source(for: open) == .notNeeded)
        #expect(try password.password(for: open) == nil)
    }

    @Test func theCommandComesBeforeTheEnvironment() throws {
        let password = lookup(["CONTACTS_REMOTE_PASSWORD": "from-environment"])
        let dav = try remote(command: "printf 'from-command\\nsecond line\\n'")

        #expect(password.source(for: dav) == .command)
        #expect(try password.password(for: dav) == "from-command")
    }

    @Test(arguments: ["printf 'pw\\r\\n'", "printf pw", "echo pw; echo more >&2"])
    func theCommandGivesItsFirstLineWithoutTheLineEnd(command: String) throws {
        #expect(try lookup().password(for: try remote(command: command)) == "pw")
    }

    @Test func aLongOutputIsReadWithoutBlockingTheCommand() throws {
        let command = "echo pw; head -c 1000000 /dev/zero | tr '\\0' x"
        #expect(try lookup().password(for: try remote(command: command)) == "pw")
    }

    @Test(arguments: ["exit 3", "echo pw; exit 1", "true", "echo", "kill -TERM $$", "/nonexistent/program"])
    func aCommandThatFailsOrPrintsNothingExits77(command: String) throws {
        let password = lookup(["CONTACTS_REMOTE_PASSWORD": "from-environment"])
        let dav = try remote(command: command)

        #expect(failureStatus { () throws(CLIError) in try password.password(for: dav) } == 77)
    }

    @Test func theEnvironmentComesBeforeThePrompt() throws {
        let password = lookup(["CONTACTS_REMOTE_PASSWORD": "from-environment"])
        let dav = try remote()

        #expect(password.source(for: dav) == .environment)
        #expect(try password.password(for: dav) == "from-environment")
    }

    @Test(arguments: [[:], ["CONTACTS_REMOTE_PASSWORD": ""]])
    func withoutATerminalAndNothingSetItExits77(environment: [String: String]) throws {
        let password = lookup(environment)
        let dav = try remote()

        #expect(password.source(for: dav) == .prompt)
        #expect(failureStatus { () throws(CLIError) in try password.password(for: dav) } == 77)
    }

    @Test func thePromptReadsALineWithEchoOffAndPutsTheTerminalBack() throws {
        let terminal = try PseudoTerminal()
        var lookup = RemotePassword(environment: [:])
        lookup.terminalPath = terminal.slavePath
        let password = lookup
        let dav = try remote()
        let answer = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            answer.withLock { $0 = try? password.password(for: dav) }
            done.signal()
        }

        _ = try terminal.read(until: "Password for kim at dav.example.com")
        #expect(!terminal.echoIsOn)
        terminal.type("hunter2\n")
        try #require(done.wait(timeout: .now() + 30) == .success)

        #expect(answer.withLock { $0 } == "hunter2")
        #expect(!(try terminal.read(until: "\n").contains("hunter2")))
        #expect(terminal.echoIsOn)
    }

    @Test func anInterruptDuringThePromptPutsEchoBack() async throws {
        let terminal = try PseudoTerminal()
        await #expect(processExitsWith: .signal(SIGINT)) { [path = terminal.slavePath as String] in
            var password = RemotePassword(environment: [:])
            password.terminalPath = path
            let watcher = open(path, O_RDWR | O_NOCTTY)
            Thread.detachNewThread {
                var mode = termios()
                for _ in 0..<3_000 {
                    usleep(10_000)
                    tcgetattr(watcher, &mode)
                    if mode.c_lflag & tcflag_t(ECHO) == 0 { kill(getpid(), SIGINT) }
                }
                exit(EXIT_FAILURE)
            }
            _ = try? password.password(for: remote())
            exit(EXIT_FAILURE)
        }
        #expect(terminal.echoIsOn)
    }
}

/// A pseudo-terminal: the test types on its master side, the prompt opens `slavePath`.
private final class PseudoTerminal {
    let master: Int32
    let slavePath: String
    /// Kept open so that the terminal outlives the prompt's own descriptor.
    private let slave: Int32

    struct Timeout: Error {}

    init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        self.master = master
        self.slave = slave
        slavePath = String(cString: try #require(ttyname(slave)))
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Whether the terminal echoes what is typed.
    var echoIsOn: Bool {
        var mode = termios()
        return tcgetattr(slave, &mode) == 0 && mode.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Types `text` as keys.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// What the terminal shows until `text` appears.
    func read(until text: String) throws -> String {
        var shown: [UInt8] = []
        while !String(decoding: shown, as: UTF8.self).contains(text) {
            var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 30_000) > 0 else { throw Timeout() }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Timeout() }
            shown += buffer[0..<count]
        }
        return String(decoding: shown, as: UTF8.self)
    }
}
