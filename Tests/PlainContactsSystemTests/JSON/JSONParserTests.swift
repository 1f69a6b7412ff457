import Foundation
import Testing

@testable import PlainContactsSystem

@Suite("JSONParser")
struct JSONParserTests {
    // MARK: Helpers

    private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parse(Data(text.utf8))
    }

    private func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parse(Data(bytes))
    }

    /// The error that parsing `text` throws, recorded as a test failure when there is none.
    private func error(parsing text: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> JSONSyntaxError?
    {
        error(parsing: Array(text.utf8), sourceLocation: sourceLocation)
    }

    private func error(parsing bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation)
        -> JSONSyntaxError?
    {
        do {
            let value = try parse(bytes: bytes)
            Issue.record("expected an error, parsed \(value)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    private func number(_ literal: String) throws -> JSONValue {
        .number(try #require(JSONNumber(literal: literal)))
    }

    // MARK: Values

    @Test func parsesLiteralsAndScalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse(#""text""#) == .string("text"))
        #expect(try parse(#""""#) == .string(""))
        #expect(try parse("-12.5e3") == number("-12.5e3"))
    }

    @Test func parsesNestedStructuresKeepingArrayOrder() throws {
        let text = """
            {
              "a": [1, [2, 3], {"b": [], "c": {}}, [[4], 5]],
              "d": {"e": {"f": [true, false, null]}},
              "g": "h"
            }
            """
        let expected: JSONValue = .object([
            "a": .array([
                try number("1"),
                .array([try number("2"), try number("3")]),
                .object(["b": .array([]), "c": .object([:])]),
                .array([.array([try number("4")]), try number("5")]),
            ]),
            "d": .object(["e": .object(["f": .array([.bool(true), .bool(false), .null])])]),
            "g": .string("h"),
        ])
        #expect(try parse(text) == expected)
    }

    @Test func acceptsAllFourWhitespaceCharactersAroundTokens() throws {
        let value = try parse(" \t\r\n[ 1 ,\t{ \"a\" :\r\nnull } ]\n\n")
        #expect(value == .array([try number("1"), .object(["a": .null])]))
    }

    @Test(arguments: ["\u{0C}1", "\u{A0}1", "1\u{0B}", "[1,\u{2028}2]"])
    func rejectsWhitespaceThatJSONDoesNotAllow(text: String) {
        #expect(error(parsing: text)?.kind == .malformed)
    }

    @Test(arguments: ["", "   ", "\n\n", "\u{FEFF}"])
    func rejectsEmptyDocuments(text: String) {
        #expect(error(parsing: text)?.kind == .malformed)
    }

    @Test(arguments: ["tru", "nul", "fals", "True", "NULL", "nan", "undefined", "'a'"])
    func rejectsMisspelledLiterals(text: String) {
        #expect(error(parsing: text)?.kind == .malformed)
    }

    // MARK: Strings

    @Test(arguments: [
        (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{08}"), (#"\f"#, "\u{0C}"),
        (#"\n"#, "\n"), (#"\r"#, "\r"), (#"\t"#, "\t"), (#"\u0041"#, "A"), (#"\u00e9"#, "é"),
        (#"\u00E9"#, "é"), (#"\u20AC"#, "€"), (#"\u0000"#, "\u{0}"), (#"\u001f"#, "\u{1F}"),
        (#"\u2028"#, "\u{2028}"), (#"\uFFFF"#, "\u{FFFF}"),
    ])
    func decodesEveryEscape(escape: String, expected: String) throws {
        #expect(try parse("\"\(escape)\"") == .string(expected))
        #expect(try parse("\"é\(escape)x\(escape)€\"") == .string("é\(expected)x\(expected)€"))
    }

    @Test(arguments: [
        (#"\uD83D\uDE00"#, "😀"), (#"\ud83d\ude00"#, "😀"), (#"\uD800\uDC00"#, "\u{10000}"),
        (#"\uDBFF\uDFFF"#, "\u{10FFFF}"),
    ])
    func combinesSurrogatePairEscapes(escape: String, expected: String) throws {
        #expect(try parse("\"a\(escape)b\"") == .string("a\(expected)b"))
    }

    @Test(arguments: [
        #"\uD800"#, #"\uDBFF"#, #"\uDC00"#, #"\uDFFF"#, #"\uD800x"#, #"\uD800\u0041"#,
        #"\uD800\uD800"#, #"\uDE00\uD83D"#, #"\uD800\n"#,
    ])
    func rejectsLoneSurrogateEscapes(escape: String) {
        let failure = error(parsing: "[\"ab\(escape)\"]")
        #expect(failure?.kind == .malformed)
        #expect(failure?.column == 5)
    }

    @Test(arguments: [#"\x"#, #"\u12"#, #"\u12G4"#, #"\U0041"#, #"\'"#, #"\a"#, #"\"#, #"\u"#])
    func rejectsInvalidEscapes(escape: String) {
        #expect(error(parsing: "\"\(escape)\"")?.kind == .malformed)
    }

    @Test(arguments: [UInt8(0x00), 0x09, 0x0A, 0x0D, 0x1F])
    func rejectsRawControlCharactersInStrings(byte: UInt8) {
        let failure = error(parsing: Array(#"["ab"#.utf8) + [byte] + Array(#""]"#.utf8))
        #expect(failure?.kind == .malformed)
        #expect(failure?.line == 1)
        #expect(failure?.column == 5)
    }

    @Test func keepsRawNonASCIIAndDeleteCharacters() throws {
        #expect(try parse("\"Zoë 中文 😀 \u{7F} e\u{301}\"") == .string("Zoë 中文 😀 \u{7F} e\u{301}"))
    }

    @Test(arguments: [
        [UInt8(0x80)], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC3], [0xC3, 0x28], [0xE0, 0x80, 0x80],
        [0xE0, 0x9F, 0xBF], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],
    ])
    func rejectsInvalidUTF8(sequence: [UInt8]) {
        let inString = error(parsing: [UInt8(ascii: "\"")] + sequence + [UInt8(ascii: "\"")])
        #expect(inString?.kind == .malformed)
        #expect(inString?.column == 2)
        #expect(error(parsing: [UInt8(ascii: "[")] + sequence + [UInt8(ascii: "]")])?.kind == .malformed)
    }

    @Test(arguments: [
        [UInt8(0xC2), 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    ])
    func acceptsBoundaryUTF8Sequences(sequence: [UInt8]) throws {
        let value = try parse(bytes: [UInt8(ascii: "\"")] + sequence + [UInt8(ascii: "\"")])
        #expect(value == .string(String(decoding: sequence, as: UTF8.self)))
    }

    // MARK: Numbers

    @Test(arguments: [
        "0", "-0", "7", "-7", "1.50", "0.0", "-0.0", "10", "1e5", "1E5", "1e+5", "1e-5", "1.5E-05",
        "-12.340e+010", "123456789012345678901234567890", "1e400",
    ])
    func keepsTheLiteralTextOfValidNumbers(literal: String) throws {
        let value = try parse("[\(literal)]")
        let element = try #require(value.array?.first?.number)
        #expect(element.literal == literal)
        #expect(try parse(" \(literal) ").number?.literal == literal)
    }

    @Test(arguments: [
        ("01", 2), ("-01", 3), ("00", 2), ("1.", 3), ("-", 2), ("1e", 3), ("1e+", 4), ("1E-", 4),
        (".5", 1), ("+1", 1), ("--1", 2), ("-.5", 2), ("1.e5", 3), ("0x10", 2), ("1.5.2", 4),
        ("Infinity", 1), ("-Infinity", 2), ("NaN", 1), ("1,", 2),
    ])
    func rejectsNumbersOutsideTheGrammar(text: String, column: Int) {
        let failure = error(parsing: text)
        #expect(failure?.kind == .malformed)
        #expect(failure?.line == 1)
        #expect(failure?.column == column)
    }

    // MARK: Structure errors

    @Test(arguments: [
        "[1, 2", "[1,", "[", "{", #"{"a""#, #"{"a":"#, #"{"a": 1"#, #"{"a": 1,"#, #""abc"#, #"["a\"]"#,
    ])
    func rejectsUnterminatedValues(text: String) {
        #expect(error(parsing: text)?.kind == .malformed)
    }

    @Test(arguments: [
        "[1,]", "[,1]", "[1 2]", #"{"a": 1,}"#, #"{,"a": 1}"#, #"{"a" 1}"#, #"{"a": 1 "b": 2}"#, "{a: 1}",
        "{'a': 1}", "{1: 2}", "[1:2]", "{]", "[}",
    ])
    func rejectsMisplacedPunctuation(text: String) {
        #expect(error(parsing: text)?.kind == .malformed)
    }

    @Test(arguments: [
        ("{} x", 4), ("1 2", 3), ("[]]", 3), ("nullx", 5), ("true false", 6), ("{}\u{0}", 3),
        (#""a" "b""#, 5),
        ("{}\n{}", 1),
    ])
    func rejectsTextAfterTheValue(text: String, column: Int) {
        let failure = error(parsing: text)
        #expect(failure?.kind == .malformed)
        #expect(failure?.column == column)
    }

    @Test func rejectsDuplicateKeysAtTheSecondOccurrence() {
        let failure = error(parsing: "{\n  \"a\": 1,\n  \"b\": 2,\n  \"a\": 3\n}")
        #expect(failure?.kind == .malformed)
        #expect(failure?.line == 4)
        #expect(failure?.column == 3)
    }

    @Test func reportsTheFirstRepeatedKeyInDocumentOrder() {
        let failure = error(parsing: #"{"a": 1, "b": 2, "a": 3, "b": 4}"#)
        #expect(failure?.kind == .malformed)
        #expect(failure?.column == 18)
    }

    @Test func rejectsDuplicateKeysInNestedObjects() {
        let failure = error(parsing: #"[{"x": {"k": 1, "k": {}}}]"#)
        #expect(failure?.kind == .malformed)
        #expect(failure?.column == 17)
    }

    @Test func treatsCanonicallyEquivalentKeysAsDuplicates() {
        #expect(error(parsing: "{\"\u{E9}\": 1, \"e\u{301}\": 2}")?.kind == .malformed)
    }

    @Test func acceptsTheSameKeyInDifferentObjects() throws {
        let value = try parse(#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#)
        #expect(value["a"]?["a"]?.int == 1)
        #expect(value["b"]?.array?.compactMap { $0["a"]?.int } == [2, 3])
    }

    // MARK: Depth

    @Test func acceptsNestingUpToTheMaximumDepth() throws {
        let depth = JSONParser.maximumDepth
        var value = try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var levels = 0
        while let inner = value.array {
            levels += 1
            value = inner.first ?? .null
        }
        #expect(levels == depth)
        let objects =
            String(repeating: #"{"a":"#, count: depth - 1) + "[]" + String(repeating: "}", count: depth - 1)
        #expect(try parse(objects).object != nil)
    }

    @Test func rejectsNestingBeyondTheMaximumDepth() {
        let depth = JSONParser.maximumDepth + 1
        let failure = error(
            parsing: String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        #expect(failure?.kind == .malformed)
        #expect(failure?.column == depth)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(error(parsing: objects)?.kind == .malformed)
    }

    // MARK: Locations

    @Test(arguments: [
        ("{\n  \"a\": tru\n}", 2, 8),
        ("[1,\n 2,\n x]", 3, 2),
        ("{\n  \"a\": 1,\n}", 3, 1),
        ("[\"é\", x]", 1, 7),
        ("[\"😀中\", \n\t\"ü\" x]", 2, 6),
        ("[1,\r\n x]", 2, 2),
        ("[1,\n", 2, 1),
        ("{\n  \"a\": \"b\n\"}", 2, 10),
        ("\n\n\n  \"abc", 4, 3),
    ])
    func reportsOneBasedLineAndScalarColumn(text: String, line: Int, column: Int) {
        let failure = error(parsing: text)
        #expect(failure?.kind == .malformed)
        #expect(failure?.line == line)
        #expect(failure?.column == column)
    }

    // MARK: Byte order mark

    @Test func skipsALeadingByteOrderMark() throws {
        #expect(
            try parse(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"a": "b"}"#.utf8)) == .object(["a": .string("b")]))
    }

    @Test func countsColumnsAfterTheByteOrderMark() {
        let failure = error(parsing: [0xEF, 0xBB, 0xBF] + Array("[x]".utf8))
        #expect(failure?.kind == .malformed)
        #expect(failure?.column == 2)
    }

    @Test(arguments: ["[\u{FEFF}1]", "\u{FEFF}\u{FEFF}{}", " \u{FEFF}{}", "{}\u{FEFF}"])
    func rejectsAByteOrderMarkAnywhereElse(text: String) {
        #expect(error(parsing: text)?.kind == .malformed)
    }

    @Test func rejectsAPartialByteOrderMark() {
        #expect(error(parsing: [0xEF, 0xBB] + Array("{}".utf8))?.kind == .malformed)
    }

    // MARK: Conflict markers

    @Test(arguments: [
        ("{\n<<<<<<< HEAD\n  \"a\": 1\n=======\n  \"a\": 2\n>>>>>>> topic\n}\n", 2),
        ("{\n  \"a\": 1\n=======\n  \"a\": 2\n}\n", 3),
        ("{\n  \"a\": 1,\n  \"b\": 2\n>>>>>>> 4f2c1d0 (Rename)\n}\n", 4),
        ("{\n  \"a\": 1\n||||||| merged common ancestors\n  \"a\": 0\n}\n", 3),
        ("<<<<<<< ours\n{}\n=======\n[]\n>>>>>>> theirs\n", 1),
        ("{\r\n  \"a\": 1\r\n=======\r\n  \"a\": 2\r\n}\r\n", 3),
        ("{\n  \"a\": 1\n=======", 3),
        ("{\n  \"a\" 1,\n  \"b\": 2\n<<<<<<< HEAD\n", 4),
    ])
    func reportsGitConflictMarkersWithTheFirstMarkerLine(text: String, line: Int) {
        let failure = error(parsing: text)
        #expect(failure?.kind == .conflictMarkers)
        #expect(failure?.line == line)
    }

    @Test func reportsConflictMarkersAfterAByteOrderMark() {
        let failure = error(parsing: [0xEF, 0xBB, 0xBF] + Array("<<<<<<< HEAD\n{}\n".utf8))
        #expect(failure?.kind == .conflictMarkers)
        #expect(failure?.line == 1)
    }

    @Test(arguments: [
        "{\n======= \n}", "{\n========\n}", "{\n<<<<<<<<\n}", "{\n<<<<<< HEAD\n}", "{\n >>>>>>> x\n}",
        "{\n=======x\n}",
    ])
    func treatsNearMissMarkersAsOrdinarySyntaxErrors(text: String) {
        #expect(error(parsing: text)?.kind == .malformed)
    }

    @Test func acceptsMarkerLookalikesInsideStrings() throws {
        let value = try parse(#"{"note": "<<<<<<< HEAD =======  >>>>>>> x"}"#)
        #expect(value["note"]?.string == "<<<<<<< HEAD =======  >>>>>>> x")
    }
}
