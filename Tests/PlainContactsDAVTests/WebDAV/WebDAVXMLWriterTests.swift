import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct WebDAVXMLWriterTests {
    @Test func textIsEscapedAndTheDocumentParsesBack() throws {
        var xml = WebDAVXMLWriter(root: "d:multistatus")
        xml.open("d:response")
        xml.href("/me/contacts/a&b<c>\"d\".vcf")
        xml.element("card:address-data", bytes: Data("BEGIN:VCARD\r\nNOTE:1 < 2 & 3 > 2\u{1}\r\nEND:VCARD\r\n".utf8))
        xml.empty(WebDAVElement.Name(namespace: "urn:example:x", local: "thing"))
        xml.close("d:response")
        let data = xml.finish()
        let root = try WebDAVXML.parse(data, maximumDepth: 8)
        let response = try #require(root.child(.dav("response")))
        #expect(response.child(.dav("href"))?.text == "/me/contacts/a&b<c>\"d\".vcf")
        #expect(response.child(.cardDAV("address-data"))?.text == "BEGIN:VCARD\r\nNOTE:1 < 2 & 3 > 2\r\nEND:VCARD\r\n")
        #expect(response.child(.init(namespace: "urn:example:x", local: "thing")) != nil)
    }

    @Test func anErrorBodyNamesItsCondition() throws {
        let root = try WebDAVXML.parse(WebDAVXMLWriter.error("d:valid-sync-token"), maximumDepth: 8)
        #expect(root.name == .dav("error"))
        #expect(root.child(.dav("valid-sync-token")) != nil)
    }
}
