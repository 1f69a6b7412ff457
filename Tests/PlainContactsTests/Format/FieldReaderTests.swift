import Foundation
import Testing
@testable import PlainContacts

@Suite struct FieldReaderTests {
    private let path = "people/katie-bell-9dw42k.json"

    private func decode(_ text: String) throws -> PersonRecordCoder.Decoded {
        try PersonRecordCoder.decode(Data(text.utf8), path: path)
    }

    private func decodingError(_ text: String) -> ContactsError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error as? ContactsError
        }
    }

    @Test func identifierAtTheTopOfItsRangeIsRefusedNamingTheFile() throws {
        let failure = try #require(decodingError(#"{"id": 1, "phones": [{"id": 2147483647, "value": "x"}]}"#))
        #expect(failure.code == .malformedFile)
        #expect(failure.path == path)
    }

    @Test(arguments: ["-1", "2147483648", "1e309", "0.5", "\"7\""])
    func identifierOutOfRangeIsRefused(_ number: String) throws {
        let failure = try #require(decodingError(#"{"id": 1, "phones": [{"id": "# + number + #", "value": "x"}]}"#))
        #expect(failure.code == .malformedFile)
    }

    @Test func highestIdentifierIsReadAndLeavesNoneToHandOut() throws {
        let decoded = try decode(#"{"id": 1, "phones": [{"id": 2147483646, "value": "x"}]}"#)
        guard case .multiString(let phones)? = decoded.state.values[.phones] else {
            Issue.record("no phones")
            return
        }
        #expect(phones.identifier(at: 0).rawValue == 2147483646)
        #expect(decoded.state.nextValueIdentifier == Int32.max)
    }

    @Test func entryWithoutIdentifierAfterTheLastOneIsAnExhaustedRange() throws {
        let failure = try #require(decodingError(#"{"id": 1, "nextValueID": 2147483647, "phones": [{"value": "x"}]}"#))
        #expect(failure.code == .identifiersExhausted)
        #expect(failure.path == path)
    }

    @Test func entryWithoutIdentifierTakesTheLastOne() throws {
        let decoded = try decode(#"{"id": 1, "nextValueID": 2147483646, "phones": [{"value": "x"}]}"#)
        guard case .multiString(let phones)? = decoded.state.values[.phones] else {
            Issue.record("no phones")
            return
        }
        #expect(phones.identifier(at: 0).rawValue == 2147483646)
        #expect(decoded.state.nextValueIdentifier == Int32.max)
    }

    @Test func repeatedIdentifierAtTheTopIsAnExhaustedRange() throws {
        let text = #"{"id": 1, "phones": [{"id": 2147483646, "value": "x"}, {"id": 2147483646, "value": "y"}]}"#
        let failure = try #require(decodingError(text))
        #expect(failure.code == .identifiersExhausted)
    }
}
