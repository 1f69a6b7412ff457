import Synchronization
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct ReverseProxyPolicyTests {
    /// A forwarded client at `address` through 127.0.0.1.
    private static func forwarded(_ address: String) -> HTTPForwardedClient {
        var client = HTTPForwardedClient(address: address)
        client.proxy = "127.0.0.1"
        return client
    }

    @Test func aForwardedClientMayHaveTheCapOfRequestsInProgress() throws {
        let policy = ReverseProxyPolicy(trustedProxies: try TrustedProxies(["127.0.0.1"]), maxRequestsInFlightPerClient: 2)
        let phone = Self.forwarded("203.0.113.7")
        let other = Self.forwarded("203.0.113.8")

        #expect([policy.enter(phone), policy.enter(phone), policy.enter(phone)] == [true, true, false])
        #expect(policy.enter(other))
        policy.leave(phone)
        #expect(policy.enter(phone))
    }

    @Test func requestsNotForwardedAreNotCounted() {
        let policy = ReverseProxyPolicy(maxRequestsInFlightPerClient: 1)
        let direct = HTTPForwardedClient(address: "192.0.2.7")

        #expect([policy.enter(direct), policy.enter(direct), policy.enter(direct)] == [true, true, true])
    }

    @Test func anUnreadableHeaderIsLoggedOnce() throws {
        let policy = ReverseProxyPolicy(trustedProxies: try TrustedProxies(["127.0.0.1"]))
        let request = HTTPServerRequest(
            method: "GET", target: "/", headers: ["Forwarded": #"for="203.0.113.7"#], peerAddress: "127.0.0.1")
        let lines = Mutex<[String]>([])

        for _ in 0..<3 {
            #expect(policy.client(of: request) { line in lines.withLock { $0.append(line) } }.address == "127.0.0.1")
        }

        let logged = lines.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.contains("Forwarded") == true)
    }
}
