import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct HTTPForwardedHeadersTests {
    @Test func forwardedGivesTheForOfEachElementInOrder() {
        let hops = HTTPForwardedHeaders.forwardedHops([
            #"for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711""#,
            "for=unknown, for=_hidden;proto=https",
        ])

        #expect(hops == [.address("192.0.2.60"), .address("2001:db8:cafe::17"), .unknown, .obfuscated("_hidden")])
    }

    @Test func anElementWithoutForIsAnUnknownHopAndEmptyElementsAreSkipped() {
        #expect(HTTPForwardedHeaders.forwardedHops(["proto=https;by=10.0.0.1, , for=192.0.2.7,"]) == [.unknown, .address("192.0.2.7")])
    }

    @Test func aForThatIsNoNodeIsAnUnreadableHop() {
        #expect(HTTPForwardedHeaders.forwardedHops(["for=example.com, for=192.0.2.7"]) == [nil, .address("192.0.2.7")])
    }

    @Test func quotedValuesMayHoldSeparatorsAndEscapes() {
        #expect(HTTPForwardedHeaders.forwardedHops([#"host="a,b;c", for="192.0.2.\7""#]) == [.unknown, .address("192.0.2.7")])
    }

    @Test(arguments: [
        #"for="192.0.2.7"#, "for", "for=192.0.2.7;for=192.0.2.8", "for==1", #"for="192.0.2.7"x"#, "f o r=1", #"for=a"b""#,
        "(for)=192.0.2.7",
    ])
    func aBrokenElementSyntaxMakesTheHeaderUnreadable(value: String) {
        #expect(HTTPForwardedHeaders.forwardedHops(["for=192.0.2.1", value]) == nil)
    }

    @Test func xForwardedForGivesEveryNodeOfEveryField() {
        let hops = HTTPForwardedHeaders.xForwardedForHops([
            "203.0.113.7, 198.51.100.9:3345", #" "[2001:db8::1]:4711" ,, unknown"#, "bogus",
        ])

        #expect(hops == [.address("203.0.113.7"), .address("198.51.100.9"), .address("2001:db8::1"), .unknown, nil])
    }
}
