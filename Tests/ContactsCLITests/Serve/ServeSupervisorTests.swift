import DAVTestSupport
import Foundation
import Glibc
import Testing

/// `contacts serve`'s supervisor end to end: a request whose handling crashes the server
/// process (on purpose, through the testing aid `CONTACTS_SERVE_TEST_CRASH_PATH`) loses its
/// connection and is logged, and a new server process answers on the same port.
@Suite(.serialized) struct ServeSupervisorTests {
    /// The path whose requests crash the server process.
    private static let crashPath = "/crash-me/"
    private static let crashing = ["CONTACTS_SERVE_TEST_CRASH_PATH": crashPath]

    /// Sends a request to the crash path on a new connection; returns whether it was answered.
    private func crash(port: Int) -> Bool {
        let connection = RawHTTPConnection(port: port)
        defer { connection.close() }
        return (try? connection.send("PROPFIND", Self.crashPath, headers: ["Depth": "0"])) != nil
    }

    @Test func aCrashingRequestIsLoggedAndTheServerAnswersTheNextOnTheSamePort() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let server = try ServeProcess(sandbox: sandbox, environment: Self.crashing)

        #expect(!crash(port: server.port))
        let next = try RawHTTPConnection(port: server.port).send("PROPFIND", "/me/contacts/", headers: ["Depth": "0"])
        #expect(next.status == 207)
        #expect(server.waitForLog(containing: "PROPFIND /me/contacts/ 207"))
        let stopped = try server.stop()

        #expect(stopped.status == 0)
        let crashLine = try #require(stopped.stderr.split(separator: "\n").first { $0.contains("stopped the server process") })
        #expect(crashLine.contains("a request's handling stopped the server process (signal "))
        #expect(crashLine.hasSuffix(": PROPFIND /crash-me/; restarting"))
        #expect(stopped.stderr.contains("started a new server process (pid "))
        #expect(stopped.stderr.contains("stopped"))
        // The banner is printed once, by the first server process.
        #expect(stopped.stdout.components(separatedBy: "Serving ").count == 2)
    }

    @Test func aRequestWaitingWhileTheServerRestartsIsAnswered() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let server = try ServeProcess(sandbox: sandbox, environment: Self.crashing)

        #expect(!crash(port: server.port))
        // Straight after the crash, before a new process may be listening: the backlog keeps it.
        let waiting = try RawHTTPConnection(port: server.port).send("GET", "/.well-known/carddav")
        #expect(waiting.status == 301 || waiting.status == 308 || waiting.status == 302)
        #expect(try server.stop().status == 0)
    }

    @Test func fiveCrashesWithinAMinuteStopTheServerWithStatus70() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let server = try ServeProcess(sandbox: sandbox, environment: Self.crashing)

        for round in 1...5 {
            #expect(!crash(port: server.port), "round \(round)")
            if round < 5 { #expect(server.waitForLog(containing: "started a new server process")) }
        }
        let ended = try server.waitForExit()

        #expect(ended.status == 70)
        #expect(ended.stderr.components(separatedBy: "PROPFIND /crash-me/").count == 6)
        #expect(ended.stderr.contains("stopping: the server process crashed 5 times within 60 s (exit status 70)"))
    }

    @Test func aStartUpErrorOfTheServerProcessKeepsItsExitStatus() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let first = try ServeProcess(sandbox: sandbox)
        // A second server on the same store is refused by its server process (75), which the
        // supervisor passes on.
        let second = try sandbox.run(["serve", "--listen", "127.0.0.1:0"])
        #expect(second.status == 75)
        #expect(try first.stop().status == 0)
    }
}
