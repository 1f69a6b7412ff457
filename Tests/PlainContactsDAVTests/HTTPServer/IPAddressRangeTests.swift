import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct IPAddressRangeTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1", true), ("127.0.0.1", "127.0.0.2", false),
        ("10.0.0.0/8", "10.200.3.4", true), ("10.0.0.0/8", "11.0.0.1", false),
        ("192.0.2.128/25", "192.0.2.200", true), ("192.0.2.128/25", "192.0.2.127", false),
        ("::1", "::1", true), ("[::1]", "0:0:0:0:0:0:0:1", true), ("fd00::/8", "fd12:3456::1", true),
        ("fd00::/8", "fe80::1", false), ("0.0.0.0/0", "198.51.100.7", true), ("0.0.0.0/0", "::1", false),
        ("192.0.2.7", "::ffff:192.0.2.7", true), ("::ffff:192.0.2.7", "192.0.2.7", true),
        ("127.0.0.1", "localhost", false), ("127.0.0.1", "", false),
    ])
    func matchesTheAddressesOfTheRange(range: String, address: String, contained: Bool) throws {
        let parsed = try #require(IPAddressRange(range))

        #expect(parsed.contains(address) == contained)
    }

    @Test(arguments: ["", "localhost", "example.com", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "1.2.3", "[::1", "10.0.0.1/8/8", "fe80::1%eth0"])
    func refusesWhatIsNoAddressNorRange(text: String) {
        #expect(IPAddressRange(text) == nil)
    }

    @Test func describesTheNetworkAsWritten() throws {
        #expect(try #require(IPAddressRange("10.1.2.3/8")).description == "10.0.0.0/8")
        #expect(try #require(IPAddressRange("[2001:DB8::1]")).description == "2001:db8::1")
    }

    @Test func canonicalFormsOfOneAddressAreEqual() {
        #expect(IPAddressRange.canonical("2001:DB8:0:0::1") == "2001:db8::1")
        #expect(IPAddressRange.canonical("[2001:db8::1]") == "2001:db8::1")
        #expect(IPAddressRange.canonical("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(IPAddressRange.canonical("192.0.2.7:80") == nil)
    }
}
