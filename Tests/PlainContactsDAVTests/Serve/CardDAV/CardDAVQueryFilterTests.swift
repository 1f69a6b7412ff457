import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVQueryFilterTests {
    private static let card = try? VCardReader.parse(
        Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Katie Bell\r\nTEL;TYPE=CELL:+44 555 0100\r\nEMAIL;TYPE=HOME:Katie@Example.com\r\nEND:VCARD\r\n".utf8),
        source: "test"
    ).first

    private func filter(_ inner: String, test: String = "anyof") throws -> CardDAVQueryFilter {
        let xml = "<c:filter xmlns:c=\"urn:ietf:params:xml:ns:carddav\" test=\"\(test)\">\(inner)</c:filter>"
        return try CardDAVQueryFilter(WebDAVXML.parse(Data(xml.utf8), maximumDepth: 16))
    }

    @Test func parameterFiltersLookAtTheParametersOfTheSameInstance() throws {
        let card = try #require(Self.card)
        let cell = "<c:prop-filter name=\"TEL\"><c:param-filter name=\"type\"><c:text-match match-type=\"equals\">cell</c:text-match></c:param-filter></c:prop-filter>"
        #expect(try filter(cell).matches(card))
        let work = cell.replacingOccurrences(of: ">cell<", with: ">work<")
        #expect(try !filter(work).matches(card))
        let noType = "<c:prop-filter name=\"EMAIL\"><c:param-filter name=\"TYPE\"><c:is-not-defined/></c:param-filter></c:prop-filter>"
        #expect(try !filter(noType).matches(card))
    }

    @Test func collationsFoldCaseOrNot() throws {
        let card = try #require(Self.card)
        #expect(try filter("<c:prop-filter name=\"EMAIL\"><c:text-match>katie@example</c:text-match></c:prop-filter>").matches(card))
        #expect(
            try filter("<c:prop-filter name=\"EMAIL\"><c:text-match collation=\"i;ascii-casemap\">KATIE</c:text-match></c:prop-filter>")
                .matches(card))
        #expect(
            try !filter("<c:prop-filter name=\"EMAIL\"><c:text-match collation=\"i;octet\">katie</c:text-match></c:prop-filter>")
                .matches(card))
    }

    @Test func anEmptyFilterMatchesEveryCardAndABarePropertyFilterAsksForTheProperty() throws {
        let card = try #require(Self.card)
        #expect(try CardDAVQueryFilter(nil).matches(card))
        #expect(try filter("<c:prop-filter name=\"TEL\"/>").matches(card))
        #expect(try !filter("<c:prop-filter name=\"ADR\"/>").matches(card))
        #expect(throws: CardDAVFailure.self) { try filter("<c:prop-filter><c:text-match>x</c:text-match></c:prop-filter>") }
        #expect(throws: CardDAVFailure.self) {
            try filter("<c:prop-filter name=\"FN\"><c:text-match match-type=\"regex\">x</c:text-match></c:prop-filter>")
        }
    }
}
