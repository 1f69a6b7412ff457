import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The value of an `Authorization` header for `user` and `password`.
///
/// ```swift
/// basicHeader("kim", "s3cret")  // "Basic a2ltOnMzY3JldA=="
/// ```
func basicHeader(_ user: String, _ password: String) -> String {
    "Basic " + Data((user + ":" + password).utf8).base64EncodedString()
}

@Suite struct BasicCredentialsTests {
    @Test func readsUserAndPassword() {
        let credentials = BasicCredentials(authorizationHeader: "Basic a2ltOnMzY3JldA==")
        #expect(credentials == BasicCredentials(user: "kim", password: "s3cret"))
    }

    @Test("the scheme is case-insensitive", arguments: ["basic", "BASIC", "bAsIc"])
    func schemeIsCaseInsensitive(scheme: String) {
        #expect(BasicCredentials(authorizationHeader: "\(scheme) a2ltOnMzY3JldA==")?.user == "kim")
    }

    @Test func extraSpacesAndTabsAreTolerated() {
        #expect(BasicCredentials(authorizationHeader: "  Basic \t  a2ltOnMzY3JldA==  ")?.password == "s3cret")
    }

    @Test func passwordKeepsColonsAfterTheFirst() {
        let credentials = BasicCredentials(authorizationHeader: basicHeader("kim", "a:b::c:"))
        #expect(credentials == BasicCredentials(user: "kim", password: "a:b::c:"))
    }

    @Test func emptyPasswordIsKept() {
        #expect(BasicCredentials(authorizationHeader: basicHeader("kim", ""))?.password == "")
    }

    @Test func utf8IsDecoded() {
        #expect(BasicCredentials(authorizationHeader: basicHeader("jose", "contraseña✓"))?.password == "contraseña✓")
    }

    @Test(
        "malformed headers give nil",
        arguments: [
            "", "Basic", "Basic ", "a2ltOnMzY3JldA==", "Bearer a2ltOnMzY3JldA==", "Basicx a2ltOnMzY3JldA==",
            "Basic a2ltOnMzY3JldA== extra", "Basic a2ltOnMzY3JldA", "Basic !!!!", "Basic a2ltOnMz Y3JldA==",
            "Basic a2ltczNjcmV0",  // "kims3cret": no colon
            "Basic OnMzY3JldA==",  // ":s3cret": empty user
            "Basic /w==",  // 0xFF: not UTF-8
        ])
    func malformedHeaderGivesNil(header: String) {
        #expect(BasicCredentials(authorizationHeader: header) == nil)
    }

    @Test func oversizedTokenGivesNil() {
        let header = basicHeader("kim", String(repeating: "x", count: BasicCredentials.maximumEncodedCount))
        #expect(BasicCredentials(authorizationHeader: header) == nil)
    }

    @Test func descriptionHidesThePassword() {
        #expect(!"\(BasicCredentials(user: "kim", password: "s3cret"))".contains("s3cret"))
    }
}
