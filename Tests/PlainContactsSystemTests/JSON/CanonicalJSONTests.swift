import Foundation
import Testing

@testable import PlainContactsSystem

@Suite("CanonicalJSON")
struct CanonicalJSONTests {
    // MARK: Helpers

    private func text(_ value: JSONValue) -> String {
        String(decoding: CanonicalJSON.encode(value), as: UTF8.self)
    }

    private func number(_ literal: String) throws -> JSONValue {
        .number(try #require(JSONNumber(literal: literal)))
    }

    /// The members' keys in the order the canonical text lists them.
    private func keyOrder(of keys: [String]) throws -> [String] {
        let object = JSONValue.object(Dictionary(uniqueKeysWithValues: keys.map { ($0, JSONValue.null) }))
        let lines = text(object).split(separator: "\n").dropFirst().dropLast()
        return try lines.map { line in
            let parsed = try JSONParser.parse(
                Data("{\(line.trimmingCharacters(in: .init(charactersIn: " ,")))}".utf8))
            return try #require(parsed.object?.keys.first)
        }
    }

    // MARK: Layout

    @Test func writesASampleRecordInTheExactCanonicalBytes() throws {
        let record: JSONValue = .object([
            "id": .number(JSONNumber(42)),
            "firstName": .string("Zoë"),
            "lastName": .string("O'Brien / Smith"),
            "note": .string("Line 1\nLine \"2\"\t\\ end"),
            "rating": try number("4.50"),
            "starred": .bool(true),
            "nickname": .null,
            "emails": .array([
                .object([
                    "value": .string("zoe@example.com"),
                    "label": .string("_$!<Work>!$_"),
                    "identifier": .string("E1"),
                ])
            ]),
            "groups": .array([]),
            "extra": .object([:]),
            "tags": .array([.string("a"), .number(JSONNumber(1)), .bool(false)]),
        ])
        let expected = #"""
            {
              "emails": [
                {
                  "identifier": "E1",
                  "label": "_$!<Work>!$_",
                  "value": "zoe@example.com"
                }
              ],
              "extra": {},
              "firstName": "Zoë",
              "groups": [],
              "id": 42,
              "lastName": "O'Brien / Smith",
              "nickname": null,
              "note": "Line 1\nLine \"2\"\t\\ end",
              "rating": 4.50,
              "starred": true,
              "tags": [
                "a",
                1,
                false
              ]
            }

            """#
        #expect(text(record) == expected)
        #expect(CanonicalJSON.encode(record) == Data(expected.utf8))
    }

    @Test func indentsNestedArraysAndWritesEmptyContainersOnOneLine() {
        let value: JSONValue = .array([
            .array([]),
            .array([.number(JSONNumber(1)), .array([.number(JSONNumber(2))])]),
            .object([:]),
            .object(["k": .object(["m": .array([])])]),
        ])
        let expected = """
            [
              [],
              [
                1,
                [
                  2
                ]
              ],
              {},
              {
                "k": {
                  "m": []
                }
              }
            ]

            """
        #expect(text(value) == expected)
    }

    @Test(arguments: [
        (JSONValue.null, "null\n"), (.bool(true), "true\n"), (.bool(false), "false\n"),
        (.number(JSONNumber(-3)), "-3\n"), (.string("x"), "\"x\"\n"), (.array([]), "[]\n"),
        (.object([:]), "{}\n"),
    ])
    func endsEveryDocumentWithOneNewline(value: JSONValue, expected: String) {
        #expect(text(value) == expected)
    }

    @Test func rewritesAParsedDocumentCanonically() throws {
        let parsed = try JSONParser.parse(
            Data(#"{"b":1.0,"a":[ ],"c":{"y":null,"x":"\u00e9\/"}}"#.utf8))
        #expect(
            text(parsed)
                == "{\n  \"a\": [],\n  \"b\": 1.0,\n  \"c\": {\n    \"x\": \"é/\",\n    \"y\": null\n  }\n}\n"
        )
    }

    // MARK: Key order

    @Test func sortsKeysByTheirUTF8Bytes() throws {
        let keys = ["é", "a", "Z", "_", "A", "ab", "b", "~", "0", "a\u{0}", ""]
        #expect(try keyOrder(of: keys) == ["", "0", "A", "Z", "_", "a", "a\u{0}", "ab", "b", "~", "é"])
    }

    @Test func sortsKeysByBytesRatherThanByNormalizedCharacters() throws {
        // U+212B ANGSTROM SIGN normalizes to U+00C5, which sorts before U+00D0; its UTF-8 bytes
        // (E2 84 AB) sort after those of U+00D0 (C3 90).
        #expect(try keyOrder(of: ["\u{212B}", "\u{D0}"]) == ["\u{D0}", "\u{212B}"])
    }

    // MARK: Strings

    @Test(arguments: 0..<0x20)
    func escapesEveryControlCharacter(code: Int) throws {
        let shortForms: [Int: String] = [
            0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#,
        ]
        let hex = String(code, radix: 16)
        let expected = shortForms[code] ?? #"\u00"# + (hex.count == 1 ? "0" + hex : hex)
        let scalar = try #require(Unicode.Scalar(code))
        #expect(text(.string("a\(Character(scalar))b")) == "\"a\(expected)b\"\n")
    }

    @Test func escapesQuotesBackslashesAndLineSeparators() {
        #expect(text(.string("\"\\\u{2028}x\u{2029}")) == #""\"\\\u2028x\u2029""# + "\n")
    }

    @Test func writesSlashesDeleteAndNonASCIIAsThemselves() {
        let value = JSONValue.string("a/b \u{7F} Zoë 中文 😀 e\u{301} \u{FEFF} \u{2027}\u{202A}")
        #expect(text(value) == "\"a/b \u{7F} Zoë 中文 😀 e\u{301} \u{FEFF} \u{2027}\u{202A}\"\n")
    }

    @Test func escapesKeysLikeStrings() {
        #expect(text(.object(["a\"b\n/é": .null])) == "{\n  \"a\\\"b\\n/é\": null\n}\n")
    }

    // MARK: Numbers

    @Test(arguments: ["1.50", "-0", "1E+2", "0.000", "-12.5e-03", "123456789012345678901234567890"])
    func writesNumbersWithTheirLiteralText(literal: String) throws {
        #expect(text(.array([try number(literal)])) == "[\n  \(literal)\n]\n")
    }

    // MARK: Round trips

    private static let trickyStrings = [
        "", "\"", "\\", "/", "\\/", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}\u{2029}", "😀", "e\u{301}",
        "\u{FEFF}", "\u{FFFF}", "\u{10FFFF}", "a\r\nb", "\\u0041", "<<<<<<< HEAD", "=======",
        "line\n=======\nline", String(repeating: "ab\"\\c\u{1}é", count: 50),
    ]

    @Test(arguments: trickyStrings)
    func roundTripsStringsAndKeysExactly(string: String) throws {
        let value = JSONValue.object([string: .array([.string(string), .object([string: .string(string)])])])
        let encoded = CanonicalJSON.encode(value)
        let parsed = try JSONParser.parse(encoded)
        #expect(parsed == value)
        // `String` equality ignores normalization, so compare the bytes as well.
        let key = try #require(parsed.object?.keys.first)
        let element = try #require(parsed[string]?.array?.first?.string)
        #expect(Array(key.utf8) == Array(string.utf8))
        #expect(Array(element.utf8) == Array(string.utf8))
        #expect(CanonicalJSON.encode(parsed) == encoded)
    }

    @Test func roundTripsAMixedDocument() throws {
        var nested: JSONValue = .string("core")
        for level in 0..<100 {
            nested = level.isMultiple(of: 2) ? .array([nested, .null]) : .object(["\(level)": nested])
        }
        let value: JSONValue = .object([
            "nested": nested,
            "numbers": .array(try ["0", "-0", "1.50", "1e400", "-1E-7"].map(number)),
            "strings": .array(Self.trickyStrings.map(JSONValue.string)),
            "keys": .object(
                Dictionary(
                    uniqueKeysWithValues: Self.trickyStrings.enumerated().map {
                        ($1, .number(JSONNumber($0)))
                    })),
            "empty": .array([.array([]), .object([:]), .string("")]),
        ])
        let encoded = CanonicalJSON.encode(value)
        let parsed = try JSONParser.parse(encoded)
        #expect(parsed == value)
        #expect(CanonicalJSON.encode(parsed) == encoded)
    }

    // MARK: One line

    @Test func compactTextIsTheCanonicalTextOnOneLine() throws {
        let value: JSONValue = .object([
            "b": .array([.number(JSONNumber(2)), .string("x, y")]),
            "a": .object(["z": .null, "y": .bool(true)]),
            "c": .string("line\nbreak"),
        ])
        let line = CanonicalJSON.compact(value)
        #expect(line == #"{"a": {"y": true, "z": null}, "b": [2, "x, y"], "c": "line\nbreak"}"#)
        #expect(!line.contains("\n"))
        #expect(try JSONParser.parse(Data(line.utf8)) == value)
    }
}
