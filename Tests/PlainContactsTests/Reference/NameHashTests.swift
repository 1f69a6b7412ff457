import Foundation
import Testing

@testable import PlainContacts

@Suite("NameHash")
struct NameHashTests {
    /// Vectors computed independently (Python `unicodedata` and `hashlib`), as documented on
    /// ``NameHash``.
    @Test(
        "Known vectors",
        arguments: [
            ("Katie", "Bell", "618fd5820d400360"),
            ("KATIE", "bell", "618fd5820d400360"),
            ("Ｋａｔｉｅ", "Bell", "618fd5820d400360"),
            ("Zo\u{EB}", "Ødegaard", "72205f7039f56725"),
            ("太郎", "山田", "6b1016ac29cfabde"),
            ("ｶﾀｶﾅ", "テスト", "a36c91ac7540e7f0"),
            (nil, nil, "ffe679bb831c95b6"),
            ("Иван", "Иванов", "5711eb5db56b58b0"),
            ("Chlo\u{E9}", "  Dubois  ", "a7af3538e2b633d3"),
            ("ΟΔΥΣΣΕΑΣ", "Straße", "ac70b4b65f12dfcd"),
            ("İlker", "Ñúñez", "57ac2b238415dec3"),
            ("성광", "송", "ca063e9eaf079dcd"),
            ("Katie", nil, "99792cc1bc965bb5"),
        ] as [(String?, String?, String)])
    func knownVectors(firstName: String?, lastName: String?, expected: String) {
        #expect(NameHash.of(firstName: firstName, lastName: lastName).rawValue == expected)
    }

    @Test func fullWidthNameHashesLikeASCII() {
        #expect(
            NameHash.of(firstName: "Ｋａｔｉｅ", lastName: "ＢＥＬＬ")
                == NameHash.of(firstName: "Katie", lastName: "Bell"))
    }

    @Test func caseAndSpacingDoNotChangeTheHash() {
        #expect(
            NameHash.of(firstName: "  mary  ANNE ", lastName: "\tSMITH\n")
                == NameHash.of(firstName: "Mary Anne", lastName: "Smith"))
    }

    @Test func precomposedAndDecomposedDiacriticsHashAlike() {
        let precomposed = NameHash.of(firstName: "Zo\u{EB}", lastName: "Chlo\u{E9}")
        let decomposed = NameHash.of(firstName: "Zoe\u{308}", lastName: "Chloe\u{301}")
        #expect(precomposed == decomposed)
        #expect(precomposed == NameHash.of(firstName: "Zoe", lastName: "Chloe"))
    }

    @Test func firstAndLastNameAreKeptApart() {
        #expect(
            NameHash.of(firstName: "Katie", lastName: "Bell")
                != NameHash.of(firstName: "Bell", lastName: "Katie"))
        #expect(NameHash.of(firstName: "ab", lastName: "c") != NameHash.of(firstName: "a", lastName: "bc"))
        #expect(NameHash.of(firstName: "Katie", lastName: nil) != NameHash.of(firstName: nil, lastName: "Katie"))
    }

    @Test func missingPartsHashLikeEmptyParts() {
        #expect(NameHash.of(firstName: nil, lastName: nil) == NameHash.of(firstName: "", lastName: " "))
        #expect(NameHash.of(firstName: "Katie", lastName: nil) == NameHash.of(firstName: "Katie", lastName: ""))
    }

    @Test func initAcceptsSixteenLowercaseHexDigits() throws {
        let hash = try #require(NameHash("0123456789abcdef"))
        #expect(hash.rawValue == "0123456789abcdef")
        #expect(hash == NameHash("0123456789abcdef"))
    }

    @Test(arguments: ["", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg", " 123456789abcdef", "０123456789abcdef"])
    func initRejectsMalformedStrings(_ string: String) {
        #expect(NameHash(string) == nil)
    }

    @Test func encodesAsBareJSONString() throws {
        let hash = NameHash.of(firstName: "Katie", lastName: "Bell")
        let data = try JSONEncoder().encode(hash)
        #expect(String(decoding: data, as: UTF8.self) == "\"618fd5820d400360\"")
        #expect(try JSONDecoder().decode(NameHash.self, from: data) == hash)
    }

    @Test func decodingRejectsMalformedString() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NameHash.self, from: Data("\"618FD5820D400360\"".utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NameHash.self, from: Data("42".utf8))
        }
    }

    @Test func descriptionIsTheHexDigits() {
        let hash = NameHash.of(firstName: "太郎", lastName: "山田")
        #expect(hash.description == "6b1016ac29cfabde")
        #expect("\(hash)" == hash.rawValue)
    }
}
