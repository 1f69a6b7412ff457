import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct HTTPForwardedNodeTests {
    @Test(arguments: [
        ("192.0.2.60", HTTPForwardedNode.address("192.0.2.60")),
        ("192.0.2.60:4711", .address("192.0.2.60")),
        ("[2001:DB8:cafe::17]", .address("2001:db8:cafe::17")),
        ("[2001:db8:cafe::17]:4711", .address("2001:db8:cafe::17")),
        ("2001:db8::1", .address("2001:db8::1")),
        ("[2001:db8::1]:_port", .address("2001:db8::1")),
        ("unknown", .unknown), ("UNKNOWN", .unknown),
        ("_hidden", .obfuscated("_hidden")), ("_SEVKISEK.x-1", .obfuscated("_SEVKISEK.x-1")),
        ("_hidden:123", .obfuscated("_hidden")),
    ] as [(String, HTTPForwardedNode)])
    func readsANode(text: String, node: HTTPForwardedNode) {
        #expect(HTTPForwardedNode(text) == node)
    }

    @Test(arguments: [
        "", "example.com", "192.0.2.60:", "192.0.2.60:123456", "192.0.2.60:port", "[2001:db8::1", "[192.0.2.1]x",
        "_", "_a b", "_a/b", "2001:db8::1:80x", "unknown:80x", "[2001:db8::1]:4711:1",
    ])
    func refusesWhatIsNoNode(text: String) {
        #expect(HTTPForwardedNode(text) == nil)
    }
}
