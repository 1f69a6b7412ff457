import Foundation
import Testing
@testable import PlainContacts

/// The table of text properties is complete and consistent, and every entry's value comes back
/// from each format that has a place for it: a new entry is tested here as soon as it exists.
@Suite struct TextPropertyTests {
    // MARK: The table

    @Test func everyTextPropertyOfAPersonHasOneEntry() {
        let text = PropertyID.personProperties.filter { $0.type == .string }
        #expect(TextProperty.all.map(\.id).sorted(by: byKey) == text.sorted(by: byKey))
        #expect(Set(TextProperty.all.map(\.id)).count == TextProperty.all.count)
    }

    @Test func eachFormatsOrderListsExactlyTheEntriesWithAPlaceInIt() {
        func ids(_ has: (TextProperty) -> Bool) -> [PropertyID] { TextProperty.all.filter(has).map(\.id).sorted(by: byKey) }
        #expect(TextProperty.googleOrder.sorted(by: byKey) == ids { $0.google != nil })
        #expect(TextProperty.outlookOrder.sorted(by: byKey) == ids { $0.outlook != nil })
        #expect(TextProperty.ldifOrder.sorted(by: byKey) == ids { $0.ldif != nil })
    }

    @Test func vCardNamesAndComponentPositionsAreEachUsedOnce() {
        let names = TextProperty.all.compactMap(\.vCardName)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0 == $0.uppercased() })
        for structured in ["N", "ORG"] {
            let positions = TextProperty.components(of: structured).compactMap { entry -> Int? in
                if case .component(_, let index) = entry.vCard { index } else { nil }
            }
            #expect(positions == Array(0..<positions.count), "\(structured)")
        }
        #expect(TextProperty.components(of: "N").map(\.id) == [.lastName, .firstName, .middleName, .prefix, .suffix])
        #expect(TextProperty.components(of: "ORG").map(\.id) == [.organization, .department])
    }

    @Test(arguments: TextProperty.all.map(\.id))
    func everyCSVHeaderAndLDIFAttributeOfAnEntryReadsAsIt(_ id: PropertyID) throws {
        let entry = try #require(TextProperty.named(id))
        for header in entry.csvHeaders + [entry.google].compactMap(\.self) {
            #expect(CSVHeaderNames.field(for: header) == .text(id), "\(header)")
        }
        for name in entry.ldif?.names ?? [] {
            #expect(TextProperty.withLDIFAttribute(name)?.id == id, "\(name)")
        }
    }

    @Test func everyOutlookColumnReadsAsItsProperty() {
        // Outlook's "Title" is read as the prefix beside its "Suffix" column.
        let columns = TextProperty.outlookColumns(in: Set(TextProperty.Section.allCases))
        #expect(CSVLayout(header: columns.compactMap(\.outlook)).fields == columns.map { .text($0.id) })
    }

    // MARK: Round trips

    @Test(arguments: TextProperty.all.map(\.id))
    func aValueComesBackFromJSON(_ id: PropertyID) throws {
        let person = Self.person(with: id)
        let data = PersonRecordCoder.encode(id: RecordID(7), state: person.state)
        let decoded = try PersonRecordCoder.decode(data, path: "people/katie-bell.json")
        #expect(decoded.state.string(id) == Self.value(of: id))
    }

    @Test(arguments: TextProperty.all.map(\.id), [VCardVersion.v3, .v4])
    func aValueComesBackFromAVCard(_ id: PropertyID, version: VCardVersion) throws {
        let card = VCardExporter.card(for: Self.person(with: id), groupNames: [], imageData: nil, version: version)
        let people = try Self.imported(Data(VCardWriter.serialize(card).utf8))
        #expect(people.map { $0.text(id) } == [Self.value(of: id)])
        #expect(people.first.map { VCardRecordFields.lines(of: $0.state) } == [], "nothing is kept verbatim")
    }

    @Test(arguments: TextProperty.all.filter { $0.google != nil }.map(\.id))
    func aValueComesBackFromGooglesCSV(_ id: PropertyID) throws {
        let text = GoogleCSVExporter.csv(for: [Self.person(with: id)], groupNames: { _ in [] })
        #expect(try Self.converted(text, .csv).map { $0.text(id) } == [Self.value(of: id)])
    }

    @Test(arguments: TextProperty.all.filter { $0.outlook != nil }.map(\.id))
    func aValueComesBackFromOutlooksCSV(_ id: PropertyID) throws {
        let text = OutlookCSVExporter.csv(for: [Self.person(with: id)], groupNames: { _ in [] })
        #expect(try Self.converted(text, .csv).map { $0.text(id) } == [Self.value(of: id)])
    }

    @Test(arguments: TextProperty.all.filter { $0.ldif != nil }.map(\.id))
    func aValueComesBackFromLDIF(_ id: PropertyID) throws {
        let text = LDIFExporter.ldif([LDIFExporter.Entry(person: Self.person(with: id), groupNames: [], imageData: nil)])
        #expect(try Self.converted(text, .ldif).map { $0.text(id) } == [Self.value(of: id)])
    }

    @Test func everyValueAtOnceComesBackFromEachFormat() throws {
        let person = Person()
        for entry in TextProperty.all { person.setText(Self.value(of: entry.id), entry.id) }
        func expectAll(_ people: [Person], _ has: (TextProperty) -> Bool, _ format: String) {
            #expect(people.count == 1, "\(format)")
            for entry in TextProperty.all where has(entry) {
                #expect(people.first?.text(entry.id) == Self.value(of: entry.id), "\(entry.id) in \(format)")
            }
        }
        for version in [VCardVersion.v3, .v4] {
            let card = VCardExporter.card(for: person, groupNames: [], imageData: nil, version: version)
            expectAll(try Self.imported(Data(VCardWriter.serialize(card).utf8)), { _ in true }, version.rawValue)
        }
        let google = GoogleCSVExporter.csv(for: [person], groupNames: { _ in [] })
        expectAll(try Self.converted(google, .csv), { $0.google != nil }, "Google CSV")
        let outlook = OutlookCSVExporter.csv(for: [person], groupNames: { _ in [] })
        expectAll(try Self.converted(outlook, .csv), { $0.outlook != nil }, "Outlook CSV")
        let ldif = LDIFExporter.ldif([LDIFExporter.Entry(person: person, groupNames: [], imageData: nil)])
        expectAll(try Self.converted(ldif, .ldif), { $0.ldif != nil }, "LDIF")
    }

    // MARK: Helpers

    private func byKey(_ a: PropertyID, _ b: PropertyID) -> Bool { a.key < b.key }

    /// The value each test gives the property: text beyond ASCII, and for the formatted name
    /// one that differs from the composite name, as a kept formatted name does.
    private static func value(of id: PropertyID) -> String {
        id == .formattedName ? "Dr. Zoë Ünal-Bell" : "Zoë Ünal"
    }

    /// A person with a first and last name and the test's value in `id`.
    private static func person(with id: PropertyID) -> Person {
        let person = Person()
        person.firstName = "Katie"
        person.lastName = "Bell"
        person.setText(value(of: id), id)
        return person
    }

    /// The people of vCard text, mapped as an import maps them.
    private static func imported(_ data: Data) throws -> [Person] {
        try VCardReader.parse(data, source: "test.vcf", strict: true).compactMap { card in
            if case .person(let imported) = try VCardImporter.map(card, source: "test.vcf") { return imported.person }
            return nil
        }
    }

    /// The people of a file in another format, converted and mapped as an import does.
    private static func converted(_ text: String, _ format: ContactFileFormat) throws -> [Person] {
        let converted = try ContactConverter.convert(Array(text.utf8), source: "test", format: format, strict: true)
        return try imported(Data(converted.vCardText))
    }
}
