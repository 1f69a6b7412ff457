import Foundation
import Testing

/// Whether `neomutt` is installed.
let neomuttAvailable = installed("neomutt")

/// The mail-client guide's neomutt lines, run by a real neomutt in a terminal: typing part of a name at
/// the To: prompt and pressing Tab completes the address from the store.
///
/// Skipped on a machine without neomutt or tmux, except under CI (`CI` set), where their
/// absence fails the test: `.ci/run` installs both.
@Suite(
    .serialized,
    .enabled(
        if: (neomuttAvailable && tmuxAvailable) || ProcessInfo.processInfo.environment["CI"] != nil,
        "neomutt or tmux is not installed"))
struct NeomuttQueryTests {
    /// A sandbox with people, a `contacts` on the `PATH`, an empty mailbox and a muttrc that
    /// sends nothing and reaches no network; returns the running neomutt.
    private func startNeomutt(_ sandbox: CLISandbox) throws -> TmuxSession {
        try #require(neomuttAvailable, "neomutt is not installed (apt-get install neomutt)")
        try #require(tmuxAvailable, "tmux is not installed (apt-get install tmux)")
        try sandbox.initStore()
        try sandbox.add(["--first", "Joanna", "--last", "Anstrom", "--email", "joanna@x.example"])
        try sandbox.add(["--first", "Ann", "--last", "Smith", "--email", "work:ann@acme.example", "--email", "a.smith@home.example"])
        try sandbox.add(["--first", "Bob", "--last", "Nnamdi"])
        let bin = sandbox.root.appending(path: "bin", directoryHint: .isDirectory)
        let mail = sandbox.root.appending(path: "mail", directoryHint: .isDirectory)
        for folder in [bin, mail] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.createSymbolicLink(at: bin.appending(path: "contacts"), withDestinationURL: try ContactsBinary.url())
        let inbox = mail.appending(path: "inbox")
        try Data().write(to: inbox)
        let muttrc = sandbox.root.appending(path: "muttrc")
        try Data(
            """
            set folder = "\(mail.path(percentEncoded: false))"
            set spoolfile = "\(inbox.path(percentEncoded: false))"
            set mbox_type = mbox
            set record = ""
            set postponed = "\(mail.appending(path: "postponed").path(percentEncoded: false))"
            set sendmail = "/bin/true"
            set header_cache = ""
            set mail_check = 0
            set query_command = "contacts email '%s'"
            bind editor <Tab> complete-query

            """.utf8
        ).write(to: muttrc)
        let path = bin.path(percentEncoded: false) + ":" + sandbox.baseEnvironment["PATH", default: "/usr/bin:/bin"]
        let session = try TmuxSession(
            sandbox: sandbox, program: ["neomutt", "-n", "-F", muttrc.path(percentEncoded: false)],
            environment: ["PATH": path, "TERM": "screen"])
        try session.waitForScreen(containing: "Msgs:0")
        try session.press("m")
        try session.waitForScreen(containing: "To:")
        return session
    }

    @Test func tabAtTheToPromptCompletesTheOneMatchingAddress() throws {
        let sandbox = try CLISandbox()
        let session = try startNeomutt(sandbox)
        try session.type("joan")
        try session.press("Tab")
        try session.waitForScreen(containing: "To: Joanna Anstrom <joanna@x.example>")
    }

    @Test func severalMatchesOpenTheQueryMenuWithEveryAddress() throws {
        let sandbox = try CLISandbox()
        let session = try startNeomutt(sandbox)
        try session.type("smi")
        try session.press("Tab")
        try session.waitForScreen(containing: "<a.smith@home.example>")
        let screen = try session.screen()
        #expect(screen.contains("<ann@acme.example>"))
        #expect(screen.contains("| work"))
        #expect(!screen.contains("joanna@x.example"))
    }
}
