import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct HTTPDateTests {
    @Test func formatsIMFFixdate() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(1_709_251_199) == "Thu, 29 Feb 2024 23:59:59 GMT")
    }

    @Test func nowHasTheFixedLength() {
        #expect(HTTPDate.now().utf8.count == 29)
    }
}
