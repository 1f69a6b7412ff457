import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct WebDAVMultistatusTests {
    private let url = "http://127.0.0.1:5232/user/contacts/"

    private func parse(_ text: String) throws -> WebDAVMultistatus {
        try WebDAVMultistatus.parse(Data(text.utf8), url: url)
    }

    @Test func aPropfindAnswerGivesEachResourcesPropertiesAndTheOnesNotFound() throws {
        let answer = try parse("""
            <?xml version="1.0" encoding="utf-8"?>
            <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav" xmlns:CS="http://calendarserver.org/ns/">
              <response>
                <href>/user/contacts/</href>
                <propstat>
                  <prop>
                    <resourcetype><collection /><C:addressbook /></resourcetype>
                    <displayname>Contacts &amp; friends</displayname>
                    <CS:getctag>"1700000000"</CS:getctag>
                    <sync-token>http://radicale.org/ns/sync/abc</sync-token>
                  </prop>
                  <status>HTTP/1.1 200 OK</status>
                </propstat>
                <propstat>
                  <prop><C:max-resource-size /></prop>
                  <status>HTTP/1.1 404 Not Found</status>
                </propstat>
              </response>
              <response>
                <href>/user/contacts/katie.vcf</href>
                <propstat>
                  <prop><getetag>"e1"</getetag><getcontenttype>text/vcard; charset=utf-8</getcontenttype></prop>
                  <status>HTTP/1.1 200 OK</status>
                </propstat>
              </response>
            </multistatus>
            """)
        #expect(answer.responses.map(\.href) == ["/user/contacts/", "/user/contacts/katie.vcf"])
        let collection = answer.responses[0]
        #expect(collection.property(.dav("resourcetype"))?.children.map(\.name) == [.dav("collection"), .cardDAV("addressbook")])
        #expect(collection.property(.dav("displayname"))?.text == "Contacts & friends")
        #expect(collection.property(.calendarServer("getctag"))?.text == "\"1700000000\"")
        #expect(collection.failedProperties == [.cardDAV("max-resource-size"): 404])
        #expect(answer.responses[1].property(.dav("getetag"))?.text == "\"e1\"")
        #expect(answer.syncToken == nil)
    }

    @Test func aSyncCollectionAnswerGivesChangedAndRemovedMembersAndTheNewToken() throws {
        let answer = try parse("""
            <d:multistatus xmlns:d="DAV:">
              <d:response>
                <d:href>/user/contacts/new.vcf</d:href>
                <d:propstat><d:prop><d:getetag>"2"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
              </d:response>
              <d:response>
                <d:href>/user/contacts/gone.vcf</d:href>
                <d:status>HTTP/1.1 404 Not Found</d:status>
              </d:response>
              <d:sync-token>http://example.com/sync/1235</d:sync-token>
            </d:multistatus>
            """)
        #expect(answer.responses.map(\.href) == ["/user/contacts/new.vcf", "/user/contacts/gone.vcf"])
        #expect(answer.responses[0].status == nil)
        #expect(answer.responses[1].status == 404)
        #expect(answer.syncToken == "http://example.com/sync/1235")
    }

    @Test func addressDataKeepsItsTextAndCDATA() throws {
        let answer = try parse("""
            <multistatus xmlns="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><response><href>/a.vcf</href>
            <propstat><prop><card:address-data><![CDATA[BEGIN:VCARD\r\nFN:A & B\r\nEND:VCARD\r\n]]></card:address-data></prop>
            <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """)
        #expect(answer.responses.first?.property(.cardDAV("address-data"))?.text == "BEGIN:VCARD\r\nFN:A & B\r\nEND:VCARD\r\n")
    }

    @Test(arguments: [
        "<multistatus xmlns=\"DAV:\"><response><href>/a</href></multistatus>",
        "not xml at all",
        "",
        "<propfind xmlns=\"DAV:\"><prop/></propfind>",
        "<multistatus xmlns=\"DAV:\"><response><propstat/></response></multistatus>",
        "<multistatus><response><href>/a</href></response></multistatus>",
    ])
    func anUnreadableAnswerIsMalformedResponse(_ body: String) {
        #expect {
            _ = try parse(body)
        } throws: { ($0 as? SyncError)?.code == .malformedResponse }
    }

    @Test(arguments: [
        // An external entity that would read a local file.
        """
        <?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <multistatus xmlns="DAV:"><response><href>&x;</href></response></multistatus>
        """,
        // Entities that expand a billionfold.
        """
        <!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
        <multistatus xmlns="DAV:"><response><href>&c;</href></response></multistatus>
        """,
        "<!doctype multistatus><multistatus xmlns=\"DAV:\"/>",
    ])
    func aDocumentTypeIsRefusedAndNothingIsExpanded(_ body: String) {
        #expect {
            _ = try parse(body)
        } throws: { ($0 as? SyncError)?.code == .malformedResponse }
    }

    @Test func nestingDeeperThanTheLimitIsRefused() {
        let depth = WebDAVMultistatus.maximumDepth + 1
        let body = "<multistatus xmlns=\"DAV:\">" + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth)
            + "</multistatus>"
        #expect {
            _ = try parse(body)
        } throws: { ($0 as? SyncError)?.code == .malformedResponse }
    }

    @Test func statusLinesGiveTheirCode() {
        #expect(WebDAVMultistatus.statusCode("HTTP/1.1 404 Not Found") == 404)
        #expect(WebDAVMultistatus.statusCode("  HTTP/1.1 200 OK\n") == 200)
        #expect(WebDAVMultistatus.statusCode("200 OK") == nil)
    }

    @Test func theListingOfAHundredThousandCardsIsRead() throws {
        // Over 10 MB on one line, as `contacts serve` writes it: FoundationXML's parser refuses
        // a body that large when it is handed over whole rather than as a stream.
        var text = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"#
        for number in 0..<100_000 {
            text += "<d:response><d:href>/me/contacts/\(number).vcf</d:href><d:propstat><d:prop><d:getetag>&quot;\(number)&quot;"
                + "</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        }
        text += "</d:multistatus>"
        #expect(text.utf8.count > 15_000_000)

        let answer = try parse(text)

        #expect(answer.responses.count == 100_000)
        #expect(answer.responses.last?.property(.dav("getetag"))?.text == "\"99999\"")
    }

    @Test func mismatchedElementsAreRefused() {
        #expect(throws: SyncError.self) { try parse(#"<d:multistatus xmlns:d="DAV:"><d:response></d:multistatus>"#) }
    }
}
