import Foundation
import Testing
@testable import PlainContacts

@Suite struct LDIFReaderTests {
    private func records(_ text: String, strict: Bool = true) throws -> [LDIFRecord] {
        var log = ConversionLog(source: "test.ldif", strict: strict)
        return try LDIFReader.records(text, log: &log)
    }

    @Test func recordsAreSeparatedByBlankLinesAndKeepTheirLines() throws {
        let read = try records("dn: cn=a\ncn: a\n\n\n# between\ndn: cn=b\ncn: b\n")
        #expect(read.map(\.dn) == ["cn=a", "cn=b"])
        #expect(read.map(\.line) == [1, 6])
        #expect(read[1].attributes.map(\.line) == [7])
    }

    @Test func foldedLinesLoseExactlyTheirFirstSpace() throws {
        let read = try records("dn: cn=a\ndescription: one\n  two\n th\n ree\n")
        #expect(read[0].values("description") == ["one twothree"])
    }

    @Test func foldedCommentsStayComments() throws {
        let read = try records("# a comment\n  that goes on\ndn: cn=a\n")
        #expect(read.count == 1)
        #expect(read[0].attributes.isEmpty)
    }

    @Test func optionsAreDroppedAndNamesMatchInAnyCase() throws {
        let read = try records("dn: cn=a\nCN;lang-ja: エイ\ncn;binary: b\n")
        #expect(read[0].values("cn") == ["エイ", "b"])
        #expect(read[0].attributes.map(\.name) == ["CN", "cn"])
    }

    @Test func base64ValuesKeepTheirBytesAndMissingPaddingIsAdded() throws {
        let read = try records("dn:: Y249YQ==\nphoto:: /9j/\nnote:: aGk\n")
        #expect(read[0].dn == "cn=a")
        #expect(read[0].attributes[0].bytes == [0xFF, 0xD8, 0xFF])
        #expect(read[0].values("note") == ["hi"])
    }

    @Test func urlValuesAreMarkedAndNotRead() throws {
        let read = try records("dn: cn=a\njpegPhoto:< file:///tmp/a.jpg\n")
        #expect(read[0].attributes[0].isURL)
        #expect(read[0].attributes[0].text == "file:///tmp/a.jpg")
        #expect(read[0].values("jpegphoto").isEmpty)
    }

    @Test func aVersionLineIsDroppedOnlyAtTheStart() throws {
        let read = try records("version: 1\n\ndn: cn=a\nversion: 2\n")
        #expect(read.count == 1)
        #expect(read[0].values("version") == ["2"])
    }

    @Test func objectClassesCompareWithoutCaseOrSpaces() throws {
        let read = try records("dn: cn=a\nobjectClass:  GroupOfNames \n")
        #expect(read[0].hasObjectClass("groupofnames"))
    }

    @Test func recoveriesThrowWhenStrict() {
        for text in ["dn: cn=a\nno colon here\n", "dn: cn=a\nnote:: %%%\n", "dn: cn=a\nchangetype: delete\n"] {
            let error = VCardTesting.interchangeError { _ = try records(text) }
            #expect(error?.code == .malformedInput, "\(text)")
        }
    }
}
