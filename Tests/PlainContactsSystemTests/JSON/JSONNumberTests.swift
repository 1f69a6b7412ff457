import Testing

@testable import PlainContactsSystem

@Suite("JSONNumber")
struct JSONNumberTests {
    @Test(arguments: [0, 7, -5, 1_000_000, Int.max, Int.min])
    func integerInitializerWritesTheDecimalLiteral(value: Int) {
        let number = JSONNumber(value)
        #expect(number.literal == String(value))
        #expect(number.int == value)
    }

    @Test(arguments: ["0", "-0", "1.50", "6.02e23", "1E-7", "-12.5e+3", "99999999999999999999999"])
    func acceptsLiteralsThatFollowTheGrammar(literal: String) throws {
        let number = try #require(JSONNumber(literal: literal))
        #expect(number.literal == literal)
    }

    @Test(arguments: ["", " 1", "1 ", "01", "1.", "-", "1e", "1e+", ".5", "+1", "0x1", "1_000", "NaN", "١"])
    func rejectsLiteralsOutsideTheGrammar(literal: String) {
        #expect(JSONNumber(literal: literal) == nil)
    }

    @Test(arguments: [
        ("42", 42), ("-0", 0), ("-9223372036854775808", Int.min), ("9223372036854775807", Int.max),
    ])
    func readsIntegerLiteralsAsInt(literal: String, expected: Int) throws {
        #expect(try #require(JSONNumber(literal: literal)).int == expected)
    }

    @Test(arguments: ["1.0", "1e2", "1E2", "9223372036854775808", "-9223372036854775809"])
    func givesNoIntForFractionsExponentsOrOverflow(literal: String) throws {
        #expect(try #require(JSONNumber(literal: literal)).int == nil)
    }

    @Test func readsDoubles() throws {
        #expect(try #require(JSONNumber(literal: "1.50")).double == 1.5)
        #expect(try #require(JSONNumber(literal: "1E2")).double == 100)
        #expect(try #require(JSONNumber(literal: "-2.5e-1")).double == -0.25)
        #expect(try #require(JSONNumber(literal: "1e-400")).double == 0)
        #expect(try #require(JSONNumber(literal: "1e400")).double == nil)
        #expect(try #require(JSONNumber(literal: "-1e400")).double == nil)
    }

    @Test func comparesByLiteralText() throws {
        let onePointFive = try #require(JSONNumber(literal: "1.5"))
        let onePointFifty = try #require(JSONNumber(literal: "1.50"))
        #expect(onePointFive != onePointFifty)
        #expect(try #require(JSONNumber(literal: "1")) == JSONNumber(1))
        #expect(try #require(JSONNumber(literal: "1.0")) != JSONNumber(1))
        #expect(Set([onePointFive, onePointFifty, try #require(JSONNumber(literal: "1.5"))]).count == 2)
    }
}
