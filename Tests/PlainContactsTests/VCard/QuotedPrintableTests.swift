import Testing

@testable import PlainContacts

@Suite("QuotedPrintable")
struct QuotedPrintableTests {
    private func lenient(_ text: String) -> (String, Int?) {
        let result = Array(text.utf8).withUnsafeBufferPointer { QuotedPrintable.decodeKeepingMalformedEscapes($0) }
        return (String(decoding: result.bytes, as: UTF8.self), result.firstMalformedOffset)
    }

    @Test("an '=' not followed by two hexadecimal digits is kept literally, and its offset reported")
    func malformedEscapesAreLiteral() {
        #expect(lenient("1+1=2") == ("1+1=2", 3))
        #expect(lenient("a=ZZb=41") == ("a=ZZbA", 1))
        #expect(lenient("=C3=84rger") == ("Ärger", nil))
        #expect(lenient("soft=\r\nbreak=") == ("softbreak", nil))
    }

    @Test("the strict decoder throws at the first malformed escape")
    func strictDecoderThrows() {
        let input: [UInt8] = Array("ab=G1".utf8)
        let offset = input.withUnsafeBufferPointer { bytes -> Int? in
            do throws(QuotedPrintable.MalformedEscape) {
                _ = try QuotedPrintable.decode(bytes)
                return nil
            } catch {
                return error.offset
            }
        }
        #expect(offset == 2)
    }
}
