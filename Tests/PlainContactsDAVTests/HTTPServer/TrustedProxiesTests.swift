import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct TrustedProxiesTests {
    @Test func trustsTheAddressesAndRangesGiven() throws {
        let proxies = try TrustedProxies(["127.0.0.1", "10.0.0.0/8", "[fd00::1]"])

        #expect(proxies.contains("127.0.0.1"))
        #expect(proxies.contains("10.9.8.7"))
        #expect(proxies.contains("fd00::1"))
        #expect(!proxies.contains("::1"))
        #expect(!proxies.contains("192.0.2.7"))
        #expect(proxies.description == "127.0.0.1, 10.0.0.0/8, fd00::1")
    }

    @Test func localhostIsBothLoopbackAddresses() throws {
        let proxies = try TrustedProxies(["localhost"])

        #expect(proxies.contains("127.0.0.1") && proxies.contains("::1"))
        #expect(!proxies.contains("127.0.0.2"))
    }

    @Test func noneTrustsNobody() {
        #expect(TrustedProxies().isEmpty)
        #expect(!TrustedProxies().contains("127.0.0.1"))
    }

    @Test(arguments: ["proxy.example.com", "127.0.0.1:8080", "10.0.0.0/40", ""])
    func anEntryThatIsNoAddressIsAnInvalidValue(entry: String) {
        let error = #expect(throws: ContactsError.self) { try TrustedProxies(["127.0.0.1", entry]) }

        #expect(error?.code == .invalidValue)
    }
}
