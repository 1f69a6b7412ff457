import Testing
@testable import PlainContacts

@Suite struct FormattedNameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var prefix: String? = nil
        var first: String? = nil
        var middle: String? = nil
        var last: String? = nil
        var suffix: String? = nil
        var testDescription: String { text }
    }

    static let cases: [Case] = [
        Case(text: "Ada Lovelace", first: "Ada", last: "Lovelace"),
        Case(text: "Lovelace, Ada", first: "Ada", last: "Lovelace"),
        Case(text: "  Ada   Lovelace ", first: "Ada", last: "Lovelace"),
        Case(text: "Ada", first: "Ada"),
        Case(text: "Ada Augusta King Lovelace", first: "Ada", middle: "Augusta King", last: "Lovelace"),
        Case(text: "Lovelace, Ada Augusta", first: "Ada", middle: "Augusta", last: "Lovelace"),
        Case(text: "Dr. Ada Lovelace", prefix: "Dr.", first: "Ada", last: "Lovelace"),
        Case(text: "Prof Dr Ada Lovelace PhD", prefix: "Prof Dr", first: "Ada", last: "Lovelace", suffix: "PhD"),
        Case(text: "John Doe, Jr.", first: "John", last: "Doe", suffix: "Jr."),
        Case(text: "Martin Luther King Jr.", first: "Martin", middle: "Luther", last: "King", suffix: "Jr."),
        Case(text: "Ludwig van Beethoven", first: "Ludwig", last: "van Beethoven"),
        Case(text: "Beethoven, Ludwig van", first: "Ludwig", middle: "van", last: "Beethoven"),
        Case(text: "Dr", first: "Dr"),
        Case(text: "山田 太郎", first: "太郎", last: "山田"),
        Case(text: "김 민준", first: "민준", last: "김"),
        Case(text: "山田太郎", first: "山田太郎"),
        Case(text: "Lovelace,", first: "Lovelace"),
        Case(text: ""),
    ]

    @Test(arguments: cases)
    func splitsAWrittenNameIntoItsParts(_ expected: Case) {
        let name = FormattedName(expected.text)
        #expect(name.prefix == expected.prefix)
        #expect(name.first == expected.first)
        #expect(name.middle == expected.middle)
        #expect(name.last == expected.last)
        #expect(name.suffix == expected.suffix)
    }
}
