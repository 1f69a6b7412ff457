import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct HTTPForwardedClientTests {
    /// The client of a request from `peer` with `headers`, trusting `proxies`.
    private static func client(
        _ headers: [(String, String)], peer: String = "127.0.0.1", proxies: [String] = ["127.0.0.1"]
    ) throws -> HTTPForwardedClient {
        HTTPForwardedClient(headers: HTTPHeaderFields(headers), peerAddress: peer, trustedProxies: try TrustedProxies(proxies))
    }

    @Test func aTrustedProxyNamesTheRightMostAddressThatIsNotAProxy() throws {
        let client = try Self.client([("X-Forwarded-For", "198.51.100.9, 203.0.113.7, 10.0.0.2")], proxies: ["127.0.0.1", "10.0.0.0/8"])

        #expect(client.address == "203.0.113.7")
        #expect(client.proxy == "127.0.0.1")
        #expect(client.unreadableHeader == nil)
        #expect(client.logNote == "for 203.0.113.7 via 127.0.0.1")
    }

    @Test func forwardedHeadersFromAnUntrustedPeerChangeNothing() throws {
        for proxies in [[], ["127.0.0.1"]] {
            let client = try Self.client(
                [("X-Forwarded-For", "203.0.113.7"), ("Forwarded", "for=203.0.113.8")], peer: "192.0.2.99", proxies: proxies)

            #expect(client == HTTPForwardedClient(address: "192.0.2.99"))
            #expect(client.logNote == nil)
        }
    }

    @Test func xForwardedForIsPreferredToForwarded() throws {
        let client = try Self.client([("Forwarded", "for=198.51.100.1"), ("X-Forwarded-For", "203.0.113.7")])

        #expect(client.address == "203.0.113.7")
    }

    @Test func forwardedNamesTheClientWithoutXForwardedFor() throws {
        let client = try Self.client([("Forwarded", #"for=198.51.100.1, for="[2001:db8::1]:4711";proto=https"#)])

        #expect(client.address == "2001:db8::1")
        #expect(client.proxy == "127.0.0.1")
    }

    @Test func severalFieldLinesAreOneList() throws {
        let client = try Self.client([("X-Forwarded-For", "203.0.113.7"), ("X-Forwarded-For", "127.0.0.1")])

        #expect(client.address == "203.0.113.7")
    }

    @Test func anObfuscatedClientIsKeptApartByItsIdentifier() throws {
        let client = try Self.client([("Forwarded", "for=_phone1")])

        #expect(client.address == "_phone1")
        #expect(client.proxy == "127.0.0.1")
    }

    @Test func anUnknownClientCountsAsTheNearestProxy() throws {
        let client = try Self.client([("X-Forwarded-For", "203.0.113.7, unknown, 10.0.0.2")], proxies: ["127.0.0.1", "10.0.0.2"])

        #expect(client == HTTPForwardedClient(address: "10.0.0.2"))
    }

    @Test func aProxyWithoutForwardedHeadersIsItsOwnClient() throws {
        #expect(try Self.client([]) == HTTPForwardedClient(address: "127.0.0.1"))
    }

    @Test func anUnreadableForwardedCountsAsTheProxyAndSaysWhich() throws {
        let client = try Self.client([("Forwarded", #"for="203.0.113.7"#)])

        #expect(client.address == "127.0.0.1")
        #expect(client.proxy == nil)
        #expect(client.unreadableHeader == "Forwarded")
    }

    @Test func anUnreadableHopReachedCountsAsTheProxyButOneBeyondTheClientDoesNot() throws {
        let reached = try Self.client([("X-Forwarded-For", "203.0.113.7, not-an-address")])
        let beyond = try Self.client([("X-Forwarded-For", "not-an-address, 203.0.113.7")])

        #expect(reached.address == "127.0.0.1")
        #expect(reached.unreadableHeader == "X-Forwarded-For")
        #expect(beyond.address == "203.0.113.7")
        #expect(beyond.unreadableHeader == nil)
    }
}
