import Dispatch
import Foundation
import Glibc
import TestTags
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The server's life over real loopback sockets: listening, the connection limit, graceful
/// stop.
@Suite struct HTTPServerTests {
    @Test(arguments: [("127.0.0.1", "127.0.0.1"), ("::1", "::1"), ("[::1]", "::1"), ("localhost", "127.0.0.1"), ("localhost", "::1")])
    func listensOnAnEphemeralPortOfTheHost(host: String, connectTo address: String) throws {
        let server = try HTTPTestServer(host: host, limits: .small, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        #expect(server.port != 0)
        let client = try HTTPTestClient(port: server.port, host: address)
        try client.send("GET /x?y HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().status == 200)
    }

    @Test func requestCarriesThePeerAddress() throws {
        let server = try HTTPTestServer(host: "::1", limits: .small) { request in .text(200, request.peerAddress) }
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port, host: "::1")
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(String(decoding: try client.readResponse().body, as: UTF8.self) == "::1")
    }

    @Test func hostThatIsNotALiteralIsRefusedAtStart() {
        let server = HTTPServer(host: "example.org", port: 0, log: { _ in }) { _ in .text(200, "") }
        let error = #expect(throws: HTTPServerError.self) { try server.start() }
        #expect(error?.code == .invalidHost)
    }

    @Test func portInUseIsRefusedAtStart() throws {
        let first = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        defer { first.stop() }
        let second = HTTPServer(host: "127.0.0.1", port: first.port, log: { _ in }) { _ in .text(200, "") }
        let error = #expect(throws: HTTPServerError.self) { try second.start() }
        #expect(error?.code == .listenFailed)
        #expect(error?.underlying?.errno == EADDRINUSE)
    }

    @Test func aClientThatConnectsWhileTheServerPreparesWaitsAndIsAnswered() throws {
        let server = HTTPServer(host: "127.0.0.1", port: 0, log: { _ in }) { _ in .text(200, "ready") }
        var waiting: HTTPTestClient?
        try server.start {
            // The address is taken and nothing is accepted yet: the client is queued, not refused.
            waiting = try? HTTPTestClient(port: server.port)
            try? waiting?.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        }
        defer {
            server.stop()
            server.waitUntilStopped()
        }
        let client = try #require(waiting)
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "ready")
    }

    @Test func aPortInUseIsRefusedBeforeTheServerPrepares() throws {
        let first = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        defer { first.stop() }
        let second = HTTPServer(host: "127.0.0.1", port: first.port, log: { _ in }) { _ in .text(200, "") }
        var prepared = false
        let error = #expect(throws: HTTPServerError.self) { try second.start { prepared = true } }
        #expect(error?.code == .listenFailed)
        #expect(!prepared)
    }

    @Test func secondStartIsRefused() throws {
        let server = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let error = #expect(throws: HTTPServerError.self) { try server.server.start() }
        #expect(error?.code == .alreadyStarted)
    }

    @Test func connectionBeyondTheLimitIsAnswered503WithRetryAfterWhenNoneIsIdle() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 2
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        var admitted: [HTTPTestClient] = []
        for index in 0..<limits.maxConnections {
            let client = try HTTPTestClient(port: server.port)
            // A request begun: its connection is busy, and is not dropped for a new one.
            try client.send("GET /\(index) HTTP/1.1\r\nHost: h\r\n")
            admitted.append(client)
        }
        let refused = try HTTPTestClient(port: server.port)
        try refused.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        let response = try refused.readResponse()
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "\(HTTPServer.busyRetryAfterSeconds)")
        #expect(refused.waitForClose())
        // The admitted connections are still served.
        for client in admitted {
            try client.send("\r\n")
            #expect(try client.readResponse().status == 200)
        }
        #expect(server.logLines.contains("- - 503 0ms (too many connections)"))
        #expect(!server.logLines.contains { $0.contains("dropped") })
    }

    @Test func idleConnectionsFromLoopbackDoNotShutOutAnotherClient() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 16
        #expect(limits.unlimitedAddresses.contains("127.0.0.1"))
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        var idle: [HTTPTestClient] = []
        for _ in 0..<40 {
            idle.append(try HTTPTestClient(port: server.port))
        }
        let kept = try HTTPTestClient(port: server.port)
        var statuses: [Int] = []
        for index in 0..<20 {
            // More idle connections keep arriving between the other client's requests.
            idle.append(try HTTPTestClient(port: server.port))
            // The other client asks on its kept-alive connection and on new ones in turn.
            let client = index.isMultiple(of: 2) ? kept : try HTTPTestClient(port: server.port)
            try client.send("GET /\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
            statuses.append(try client.readResponse().status)
        }

        #expect(statuses == Array(repeating: 200, count: 20))
        let lines = server.logLines
        #expect(!lines.contains { $0.contains(" 503 ") })
        let drops = lines.filter {
            $0.wholeMatch(of: /- - - [0-9]+ms \(connection without a request dropped for a new one\)/) != nil
        }
        // The idle connections and the kept one stay open: all but the slots' worth were
        // dropped, the oldest.
        #expect(drops.count >= idle.count + 1 - limits.maxConnections)
        #expect(idle.prefix(idle.count + 1 - limits.maxConnections).allSatisfy { $0.waitForClose() })
    }

    @Test func twoHundredIdleConnectionsAtTheDefaultLimitsDoNotShutOutAnotherClient() throws {
        let limits = HTTPServerLimits()
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        var idle: [HTTPTestClient] = []
        for _ in 0..<200 {
            idle.append(try HTTPTestClient(port: server.port))
        }
        let kept = try HTTPTestClient(port: server.port)
        var statuses: [Int] = []
        for index in 0..<20 {
            let client = index.isMultiple(of: 2) ? kept : try HTTPTestClient(port: server.port)
            try client.send("GET /\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
            statuses.append(try client.readResponse().status)
        }

        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(!server.logLines.contains { $0.contains(" 503 ") })
    }

    @Test func idleConnectionsOpenedMeanwhileDoNotShutOutAKeptAliveClient() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 16
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let kept = try HTTPTestClient(port: server.port)
        try kept.send("GET /first HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try kept.readResponse().status == 200)
        let port = server.port
        let flooded = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var idle: [HTTPTestClient] = []
            for _ in 0..<200 {
                if let client = try? HTTPTestClient(port: port) { idle.append(client) }
            }
            flooded.signal()
            _ = finished.wait(timeout: .now() + .seconds(60))
        }
        defer { finished.signal() }
        // Ask while the other thread opens connections, once every slot is taken.
        #expect(server.waitForLogLine { $0.hasSuffix("dropped for a new one)") })
        var statuses: [Int] = []
        for index in 0..<20 {
            try kept.send("GET /\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
            statuses.append(try kept.readResponse().status)
        }
        #expect(flooded.wait(timeout: .now() + .seconds(30)) == .success)

        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(!server.logLines.contains { $0.contains(" 503 ") || $0.contains("(idle connection dropped") })
    }

    @Test func anIdleKeepAliveConnectionIsDroppedForANewOneOldestFirst() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 2
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        var clients: [HTTPTestClient] = []
        for index in 0..<limits.maxConnections {
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            clients.append(client)
            // Idle from when the server has finished with it: one after the other.
            #expect(server.waitForIdleConnections(clients.count))
        }

        let newcomer = try HTTPTestClient(port: server.port)
        try newcomer.send("GET /new HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try newcomer.readResponse().status == 200)
        #expect(clients[0].waitForClose())
        try clients[1].send("GET /again HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try clients[1].readResponse().status == 200)
        #expect(server.logLines.contains { $0.wholeMatch(of: /- - - [0-9]+ms \(idle connection dropped for a new one\)/) != nil })
    }

    @Test func theClientATrustedProxyNamesMostLosesItsOldestIdleConnectionFirst() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 3
        let server = try HTTPTestServer(
            limits: limits, trustedProxies: try TrustedProxies(["127.0.0.1"]), handler: CountingEchoHandler().echo)
        defer { server.stop() }
        var clients: [HTTPTestClient] = []
        for forwardedFor in ["198.51.100.9", "203.0.113.7", "203.0.113.7"] {
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\nX-Forwarded-For: \(forwardedFor)\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            clients.append(client)
            #expect(server.waitForIdleConnections(clients.count))
        }

        let newcomer = try HTTPTestClient(port: server.port)
        try newcomer.send("GET /new HTTP/1.1\r\nHost: h\r\nX-Forwarded-For: 192.0.2.1\r\n\r\n")
        #expect(try newcomer.readResponse().status == 200)
        // The older of the two held for 203.0.113.7 goes, not the oldest of all.
        #expect(clients[1].waitForClose())
        for client in [clients[0], clients[2]] {
            try client.send("GET /again HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
        #expect(!server.logLines.contains { $0.contains("203.0.113.7") || $0.contains("198.51.100.9") })
    }

    @Test func oneAddressHoldingConnectionsOpenCannotShutOutTheOthers() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 4
        limits.maxConnectionsPerAddress = 2
        // The tests' clients all come from loopback: count it as one client here.
        limits.unlimitedAddresses = []
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        var held: [HTTPTestClient] = []
        for _ in 0..<limits.maxConnectionsPerAddress {
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            held.append(client)
        }
        let beyond = try HTTPTestClient(port: server.port)
        try beyond.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try beyond.readResponse().status == 503)
        // Once one closes, the address may open another.
        try held[0].send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try held[0].readResponse().status == 200)
        #expect(held[0].waitForClose())
        var status = 0
        for _ in 0..<200 where status != 200 {
            let next = try HTTPTestClient(port: server.port)
            try next.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            status = try next.readResponse().status
            if status != 200 { usleep(10_000) }
        }
        #expect(status == 200)
    }

    @Test func loopbackIsNotCountedPerAddressByDefault() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 4
        limits.maxConnectionsPerAddress = 1
        #expect(limits.unlimitedAddresses.contains("127.0.0.1"))
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        var clients: [HTTPTestClient] = []
        for _ in 0..<3 {
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            clients.append(client)
        }
    }

    @Test func aTrustedProxysRangeIsNotCountedPerAddress() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 4
        limits.maxConnectionsPerAddress = 1
        limits.unlimitedAddresses = []
        limits.unlimitedRanges = [try #require(IPAddressRange("127.0.0.0/8"))]
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        var clients: [HTTPTestClient] = []
        for _ in 0..<3 {
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            clients.append(client)
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedSoonerThanAnIdleOne() throws {
        var limits = HTTPServerLimits.small
        limits.firstRequestTimeout = .milliseconds(200)
        limits.idleTimeout = .seconds(10)
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let talking = try HTTPTestClient(port: server.port)
        try talking.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try talking.readResponse().status == 200)
        // Opened once the talking connection waits idle, the silent one is closed a
        // first-request timeout later than that wait began.
        #expect(server.waitForIdleConnections(1))
        let silent = try HTTPTestClient(port: server.port)
        #expect(silent.waitForClose(timeout: .seconds(2)))
        // The connection that sent a request is still open after the first-request timeout.
        try talking.send("GET /again HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try talking.readResponse().status == 200)
    }

    @Test func connectionIsServedOnceAnotherHasClosed() throws {
        var limits = HTTPServerLimits.small
        limits.maxConnections = 1
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let first = try HTTPTestClient(port: server.port)
        try first.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try first.readResponse().status == 200)
        #expect(first.waitForClose())
        // The slot frees once the server's thread has finished with the first connection.
        var status = 0
        for _ in 0..<200 where status != 200 {
            let next = try HTTPTestClient(port: server.port)
            try next.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            status = try next.readResponse().status
            if status != 200 { usleep(10_000) }
        }
        #expect(status == 200)
    }

    @Test func stopFinishesTheRequestInProgressAndClosesIdleConnections() throws {
        let gate = HTTPHandlerGate()
        let server = try HTTPTestServer(limits: .small) { request in
            if request.path == "/slow" { gate.pass() }
            return .text(200, request.path)
        }
        let idle = try HTTPTestClient(port: server.port)
        try idle.send("GET /first HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let busy = try HTTPTestClient(port: server.port)
        try busy.send("PUT /slow HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
        #expect(gate.waitUntilEntered())

        server.server.stop()
        #expect(idle.waitForClose())
        gate.release()
        let response = try busy.readResponse()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "/slow")
        #expect(response.header("Connection") == "close")
        #expect(busy.waitForClose())
        #expect(server.server.waitUntilStopped(timeout: .seconds(10)))
        #expect(HTTPTestClient.connectionIsRefused(port: server.port))
    }

    @Test func stopFinishesARequestWhoseFirstBytesHadArrived() throws {
        let server = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /first HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        try client.send("PUT /second HTTP/1.1\r\nHost: h\r\n")

        server.server.stop()
        try client.send("Content-Length: 4\r\n\r\ndata")
        let response = try client.readResponse()
        #expect(String(decoding: response.body, as: UTF8.self) == "PUT /second data")
        #expect(response.header("Connection") == "close")
        #expect(server.server.waitUntilStopped(timeout: .seconds(10)))
    }

    @Test func stopBeforeStartLeavesNothingToWaitFor() {
        let server = HTTPServer(host: "127.0.0.1", port: 0, log: { _ in }) { _ in .text(200, "") }
        server.stop()
        #expect(server.waitUntilStopped(timeout: .seconds(1)))
        let error = #expect(throws: HTTPServerError.self) { try server.start() }
        #expect(error?.code == .alreadyStarted)
    }

    @Test func signalStopsTheServer() throws {
        let server = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        let received = DispatchSemaphore(value: 0)
        let watch = try HTTPServerSignalWatch(server: server.server, signals: [SIGUSR2]) { _ in received.signal() }
        defer { watch.cancel() }
        kill(getpid(), SIGUSR2)
        #expect(received.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(server.server.waitUntilStopped(timeout: .seconds(10)))
        #expect(HTTPTestClient.connectionIsRefused(port: server.port))
    }
}
