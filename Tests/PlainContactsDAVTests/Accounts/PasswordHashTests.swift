import DAVTestSupport
import PlainContactsSystem
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct PasswordHashTests {
    /// Cheap enough for a debug build; the parsing floor is lowered to match.
    static let testIterations = 1_000

    @Test func defaultCountLiesInTheAcceptedRange() {
        #expect(PasswordHash.minimumIterations >= 100_000)
        #expect(PasswordHash.minimumIterations <= PasswordHash.defaultIterations)
        #expect(PasswordHash.defaultIterations <= PasswordHash.maximumIterations)
    }

    @Test func madeHashHasFreshSaltAndFullLengthKey() throws {
        let first = try PasswordHash.make(password: "s3cret", iterations: Self.testIterations)
        let second = try PasswordHash.make(password: "s3cret", iterations: Self.testIterations)
        #expect(first.algorithm == .pbkdf2SHA256)
        #expect(first.salt.count == 16)
        #expect(first.derivedKey.count == 32)
        #expect(first.salt != second.salt)
        #expect(first.derivedKey != second.derivedKey)
    }

    @Test func verifyAcceptsRightPasswordAndRefusesWrongOne() throws {
        let hash = try PasswordHash.make(password: "correct horse", iterations: Self.testIterations)
        #expect(hash.verify("correct horse"))
        #expect(!hash.verify("correct hors"))
        #expect(!hash.verify("correct horse "))
        #expect(!hash.verify(""))
    }

    @Test func textRoundTripsExactly() throws {
        let hash = try PasswordHash.make(password: "pässwörd", iterations: Self.testIterations)
        let parsed = try PasswordHash(parsing: hash.text, minimumIterations: Self.testIterations)
        #expect(parsed == hash)
        #expect(parsed.text == hash.text)
        #expect(parsed.verify("pässwörd"))
    }

    @Test func textHasTheDocumentedShape() {
        let hash = PasswordHash(
            iterations: 600_000, salt: Array("saltsaltsaltsalt".utf8), derivedKey: [UInt8](repeating: 0xff, count: 32))
        #expect(hash.text == "pbkdf2-sha256$600000$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=")
    }

    @Test func parsingToleratesWhitespaceCaseAndMissingPadding() throws {
        let hash = try PasswordHash(
            parsing: "  PBKDF2-SHA256$600000$c2FsdHNhbHRzYWx0c2FsdA$//////////////////////////////////////////8\n")
        #expect(hash.iterations == 600_000)
        #expect(hash.salt == Array("saltsaltsaltsalt".utf8))
        #expect(hash.derivedKey == [UInt8](repeating: 0xff, count: 32))
    }

    @Test func tamperedKeyTextParsesButNoLongerVerifies() throws {
        let hash = try PasswordHash.make(password: "s3cret", iterations: Self.testIterations)
        var fields = hash.text.split(separator: "$").map(String.init)
        fields[3] = (fields[3].first == "A" ? "B" : "A") + fields[3].dropFirst()
        let tampered = try PasswordHash(parsing: fields.joined(separator: "$"), minimumIterations: Self.testIterations)
        #expect(!tampered.verify("s3cret"))
    }

    @Test(
        "malformed texts are refused",
        arguments: [
            "", "pbkdf2-sha256", "pbkdf2-sha256$600000$c2FsdHNhbHRzYWx0c2FsdA==",
            "pbkdf2-sha1$600000$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=",
            "pbkdf2-sha256$6e5$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=",
            "pbkdf2-sha256$-600000$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=",
            "pbkdf2-sha256$$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=",
            "pbkdf2-sha256$600000$c2Fs*HNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=",
            "pbkdf2-sha256$600000$c2FsdA==$//////////////////////////////////////////8=",
            "pbkdf2-sha256$600000$c2FsdHNhbHRzYWx0c2FsdA==$AAAA",
            "pbkdf2-sha256$600000$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8=$extra",
        ])
    func malformedTextIsRefused(text: String) {
        let error = #expect(throws: ContactsError.self) { try PasswordHash(parsing: text) }
        #expect(error?.code == .invalidValue)
    }

    @Test(
        "iteration counts outside the accepted range are refused",
        arguments: ["99999", "0", "10000001", "99999999999999999999999"])
    func iterationsOutsideRangeAreRefused(iterations: String) {
        let text = "pbkdf2-sha256$\(iterations)$c2FsdHNhbHRzYWx0c2FsdA==$//////////////////////////////////////////8="
        let error = #expect(throws: ContactsError.self) { try PasswordHash(parsing: text) }
        #expect(error?.code == .invalidValue)
    }

    @Test func makeRefusesIterationCountsOutsideRange() {
        for iterations in [0, PasswordHash.maximumIterations + 1] {
            let error = #expect(throws: ContactsError.self) {
                try PasswordHash.make(password: "s3cret", iterations: iterations)
            }
            #expect(error?.code == .invalidValue)
        }
    }

    /// The published PBKDF2-HMAC-SHA256 vector (P="passwordPASSWORDpassword",
    /// S="saltSALTsaltSALTsaltSALTsaltSALTsalt", c=4096, dkLen=40) in the text form.
    @Test func publishedVectorAsStoredHashVerifiesItsPassword() throws {
        let hash = try PasswordHash(
            parsing: "pbkdf2-sha256$4096$c2FsdFNBTFRzYWx0U0FMVHNhbHRTQUxUc2FsdFNBTFRzYWx0"
                + "$NIyJ28vTKy8y2BS4EW6EzysXNH68GAAYHE4qH7jdU+HGNVGMfaxH6Q==",
            minimumIterations: 1)
        #expect(hash.derivedKey == bytes(hex: "348c89dbcbd32b2f32d814b8116e84cf2b17347ebc1800181c4e2a1fb8dd53e1c635518c7dac47e9"))
        #expect(hash.verify("passwordPASSWORDpassword"))
        #expect(!hash.verify("passwordPASSWORDpassworD"))
    }

    @Test func descriptionHidesSaltAndKey() throws {
        let hash = try PasswordHash.make(password: "s3cret", iterations: Self.testIterations)
        #expect("\(hash)" == "pbkdf2-sha256 (1000 iterations)")
    }
}
