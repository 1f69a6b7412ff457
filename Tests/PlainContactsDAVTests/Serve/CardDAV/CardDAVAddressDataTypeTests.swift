import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVAddressDataTypeTests {
    @Test(arguments: [
        (nil, nil), ("", nil), ("*/*", nil), ("text/vcard", nil), ("text/*", nil), ("text/vcard; charset=utf-8", nil),
        ("text/vcard; version=4.0", VCardVersion.v4), ("text/vcard;version=3.0", .v3), ("text/vcard; version=\"4.0\"", .v4),
        ("TEXT/VCARD; Version=4.0", .v4), ("text/x-vcard; version=4.0", .v4),
        ("text/vcard; version=3.0; q=0.5, text/vcard; version=4.0", .v4),
        ("text/vcard; version=4.0; q=0.2, text/vcard; version=3.0; q=0.9", .v3),
        ("text/vcard; version=3.0; q=0, */*", .v4), ("text/vcard;version=4.0, text/vcard;version=3.0", nil),
        ("application/vcard+json, text/vcard; version=4.0;q=0.1", .v4), ("text/html, */*;q=0.1", nil),
    ] as [(String?, VCardVersion?)])
    func acceptChoosesTheVersionOfTheMostSpecificHighestRange(_ accept: String?, _ expected: VCardVersion?) throws {
        #expect(try CardDAVAddressDataType.version(accepting: accept) == expected)
    }

    @Test(arguments: [
        "application/vcard+json", "text/vcard; version=2.1", "text/vcard; version=4.0; q=0, text/vcard; version=3.0; q=0",
        "text/html", "text/vcard; q=0",
    ])
    func anAcceptAdmittingNoVersionIs406NamingWhatIsOffered(_ accept: String) throws {
        let failure = try #require(throws: CardDAVFailure.self) { try CardDAVAddressDataType.version(accepting: accept) }
        #expect(failure.status == 406)
        let body = String(decoding: failure.response.body, as: UTF8.self)
        #expect(body.contains("text/vcard; version=3.0") && body.contains("text/vcard; version=4.0"))
    }

    private static func report(_ addressData: String) throws -> WebDAVElement {
        let body = "<card:addressbook-multiget xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\">"
            + "<d:prop><d:getetag/>\(addressData)</d:prop></card:addressbook-multiget>"
        return try WebDAVXML.parse(Data(body.utf8), maximumDepth: 16)
    }

    @Test(arguments: [
        ("<card:address-data/>", nil), ("", nil), ("<card:address-data content-type=\"text/vcard\"/>", nil),
        ("<card:address-data content-type=\"text/vcard\" version=\"4.0\"/>", VCardVersion.v4),
        ("<card:address-data content-type=\"text/vcard\" version=\"3.0\"/>", .v3),
        ("<card:address-data version=\"4.0\"><card:prop name=\"FN\"/></card:address-data>", .v4),
    ] as [(String, VCardVersion?)])
    func addressDataAsksForAVersionByItsAttributes(_ element: String, _ expected: VCardVersion?) throws {
        #expect(try CardDAVAddressDataType.version(askedIn: Self.report(element)) == expected)
    }

    @Test(arguments: [
        "<card:address-data content-type=\"text/vcard\" version=\"2.1\"/>",
        "<card:address-data content-type=\"application/vcard+json\" version=\"4.0\"/>",
        "<card:address-data content-type=\"text/calendar\"/>",
        // CalDAVTester's Resource/CardDAV/verrors/10.xml and 12.xml (errorcondition.xml).
        "<card:address-data content-type=\"text/vcards\" version=\"2.0\"/>",
    ])
    func anAddressDataTypeNotMadeIsRefusedWithSupportedAddressData(_ element: String) throws {
        let failure = try #require(throws: CardDAVFailure.self) { try CardDAVAddressDataType.version(askedIn: Self.report(element)) }
        #expect(failure.status == 403)
        #expect(failure.condition == "card:supported-address-data")
    }
}
