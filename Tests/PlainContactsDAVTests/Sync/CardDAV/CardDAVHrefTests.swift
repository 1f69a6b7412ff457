import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVHrefTests {
    private func canonical(_ href: String) throws -> String {
        try CardDAVHref.canonicalPath(href, in: testURL("https://dav.example.com/user/contacts/"))
    }

    @Test func relativeAbsoluteAndFullHrefsGiveOnePath() throws {
        #expect(try canonical("katie.vcf") == "/user/contacts/katie.vcf")
        #expect(try canonical("/user/contacts/katie.vcf") == "/user/contacts/katie.vcf")
        #expect(try canonical("https://dav.example.com/user/contacts/katie.vcf") == "/user/contacts/katie.vcf")
        #expect(try canonical("https://DAV.example.com:443/user/contacts/katie.vcf") == "/user/contacts/katie.vcf")
    }

    @Test func percentEncodingIsDecodedOnceAndWrittenOneWay() throws {
        #expect(try canonical("a%40b.vcf") == "/user/contacts/a@b.vcf")
        #expect(try canonical("a@b.vcf") == "/user/contacts/a@b.vcf")
        #expect(try canonical("caf%c3%a9.vcf") == "/user/contacts/caf%C3%A9.vcf")
        #expect(try canonical("two%20words.vcf") == "/user/contacts/two%20words.vcf")
        #expect(try canonical("a%2540.vcf") == "/user/contacts/a%2540.vcf")
    }

    @Test func anEncodedSlashStaysInsideItsSegment() throws {
        #expect(try canonical("a%2Fb.vcf") == "/user/contacts/a%2Fb.vcf")
    }

    @Test func anHrefOnAnotherServerIsRefused() throws {
        let error = try #require(throws: SyncError.self) { try canonical("https://evil.example.net/user/contacts/a.vcf") }
        #expect(error.code == .malformedResponse)
        let otherPort = try #require(throws: SyncError.self) { try canonical("https://dav.example.com:8443/a.vcf") }
        #expect(otherPort.code == .malformedResponse)
    }
}
