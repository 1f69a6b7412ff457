import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct HTTPServerAddressTests {
    @Test func literalsAndLocalhostAreAccepted() throws {
        #expect(try HTTPServerAddress.addresses(forHost: "127.0.0.1") == [HTTPServerAddress(family: .ipv4, text: "127.0.0.1")])
        #expect(try HTTPServerAddress.addresses(forHost: "::1") == [HTTPServerAddress(family: .ipv6, text: "::1")])
        #expect(try HTTPServerAddress.addresses(forHost: "[::]") == [HTTPServerAddress(family: .ipv6, text: "::")])
        #expect(try HTTPServerAddress.addresses(forHost: "LocalHost").map(\.text) == ["127.0.0.1", "::1"])
    }

    @Test(arguments: ["example.org", "", "256.1.1.1", "[127.0.0.1", "::1]", "1.2.3.4:80"])
    func otherHostsAreRefused(_ host: String) {
        let error = #expect(throws: HTTPServerError.self) { try HTTPServerAddress.addresses(forHost: host) }
        #expect(error?.code == .invalidHost)
    }
}
