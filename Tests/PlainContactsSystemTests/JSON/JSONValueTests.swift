import Testing

@testable import PlainContactsSystem

@Suite("JSONValue")
struct JSONValueTests {
    private let samples: [JSONValue] = [
        .null, .bool(true), .number(JSONNumber(3)), .string("s"), .array([.null]), .object(["k": .null]),
    ]

    @Test func accessorsReturnTheirOwnCaseOnly() throws {
        #expect(samples.map(\.isNull) == [true, false, false, false, false, false])
        #expect(samples.map(\.bool) == [nil, true, nil, nil, nil, nil])
        #expect(samples.map(\.int) == [nil, nil, 3, nil, nil, nil])
        #expect(samples.map(\.double) == [nil, nil, 3, nil, nil, nil])
        #expect(samples.map(\.number) == [nil, nil, JSONNumber(3), nil, nil, nil])
        #expect(samples.map(\.string) == [nil, nil, nil, "s", nil, nil])
        #expect(samples.map(\.array) == [nil, nil, nil, nil, [.null], nil])
        #expect(samples.map(\.object) == [nil, nil, nil, nil, nil, ["k": .null]])
    }

    @Test func intIsNilForNonIntegerNumbers() throws {
        #expect(JSONValue.number(try #require(JSONNumber(literal: "2.0"))).int == nil)
        #expect(JSONValue.number(try #require(JSONNumber(literal: "2.0"))).double == 2)
    }

    @Test func subscriptFindsMembersOfObjectsOnly() {
        let object = JSONValue.object(["present": .null, "name": .string("x")])
        #expect(object["present"] == .null)
        #expect(object["name"]?.string == "x")
        #expect(object["absent"] == nil)
        for value in samples where value.object == nil {
            #expect(value["k"] == nil)
        }
    }
}
