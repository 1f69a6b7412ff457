import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

/// The fields of a person a CSV layout carries, comparable across stores.
private struct Carried: Hashable, CustomStringConvertible {
    var fields: [String: String]
    var description: String { fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
}

private func carried(_ person: Person, in book: AddressBook, outlook: Bool) -> Carried {
    var fields: [String: String] = [:]
    func put(_ key: String, _ value: String?) { if let value, !value.isEmpty { fields[key] = value } }
    put("first", person.firstName)
    put("middle", person.middleName)
    put("last", person.lastName)
    put("prefix", person.prefix)
    put("suffix", person.suffix)
    put("nickname", person.nickname)
    put("firstPhonetic", person.firstNamePhonetic)
    put("lastPhonetic", person.lastNamePhonetic)
    put("organization", person.organization)
    put("department", person.department)
    put("jobTitle", person.jobTitle)
    put("birthday", person.birthday?.description)
    put("note", person.note)
    put("groups", book.groups(containing: person).compactMap(\.name).sorted().joined(separator: ","))
    func entries<Value>(_ values: MultiValue<Value>, _ text: (Value) -> String) -> String {
        values.map { "\($0.label?.rawValue ?? "-"):\(text($0.value))" }.sorted().joined(separator: "|")
    }
    put("emails", entries(person.emails) { $0 })
    put("phones", entries(person.phones) { $0 })
    let address: (PostalAddress) -> String = { address in
        [address.poBox, address.street, address.city, address.state, address.zip, address.country]
            .map { $0 ?? "" }.joined(separator: "/")
    }
    if outlook {
        // Outlook labels what it has columns for; the values themselves all come back.
        put("phones", person.phones.values.sorted().joined(separator: "|"))
        put("addresses", person.addresses.map { address($0.value) }.sorted().joined(separator: "|"))
        put("urls", person.urls.values.sorted().joined(separator: "|"))
    } else {
        put("middlePhonetic", person.middleNamePhonetic)
        put("formattedName", person.formattedName)
        put("addresses", entries(person.addresses, address))
        put("urls", entries(person.urls) { $0 })
        put("related", entries(person.relatedNames) { $0 })
        put("dates", entries(person.dates) { $0.description })
        put("accounts", entries(person.instantMessages) { "\($0.service ?? "")/\($0.username ?? "")" })
    }
    return Carried(fields: fields)
}

@Suite struct CSVExportTests {
    /// A store filled from the richest fixtures.
    private func sourceBook(_ fixtures: [String]) throws -> (AddressBook, TemporaryStore) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        for name in fixtures {
            _ = try book.importContacts(
                from: try InterchangeFixtures.data("csv/" + name), source: name,
                options: VCardImportOptions(onMatch: .createNew))
        }
        return (book, store)
    }

    private func roundTrip(layout: CSVLayoutName, fixtures: [String]) throws -> ([Carried], [Carried]) {
        let (book, _store) = try sourceBook(fixtures)
        _ = _store
        let text = try book.exportCSV(book.allPeople(sortedBy: nil), layout: layout)
        let copyStore = try TemporaryStore()
        let copy = try copyStore.makeBook()
        let report = try copy.importContacts(
            from: Data(text.utf8), source: "export.csv", options: VCardImportOptions(onMatch: .createNew))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let outlook = layout == .outlook
        let before = book.allPeople().map { carried($0, in: book, outlook: outlook) }
        let after = copy.allPeople().map { carried($0, in: copy, outlook: outlook) }
        return (before.sorted { $0.description < $1.description }, after.sorted { $0.description < $1.description })
    }

    @Test func googleCSVExportThenImportGivesTheSamePeople() throws {
        let (before, after) = try roundTrip(
            layout: .google,
            fixtures: ["bbdb-gmail.csv", "roundcube-all.csv", "handmade-outlook-de.csv", "handmade-outlook-ja.csv",
                "handmade-google-old-utf16.csv", "handmade-thunderbird.tsv"])
        #expect(before.count == 7)
        #expect(before == after)
    }

    @Test func outlookCSVExportThenImportGivesTheSamePeopleForWhatOutlookCarries() throws {
        let (before, after) = try roundTrip(
            layout: .outlook,
            fixtures: ["handmade-outlook-de.csv", "handmade-outlook-fr.csv", "handmade-yahoo.csv", "bbdb-linkedin.csv"])
        #expect(before == after)
    }

    @Test func keptColumnsComeBackAsGoogleCustomFields() throws {
        let (book, _store) = try sourceBook(["handmade-thunderbird.tsv"])
        _ = _store
        let text = try book.exportCSV(book.allPeople(sortedBy: nil), layout: .google)
        #expect(text.contains("Custom Field 1 - Label,Custom Field 1 - Value"))
        #expect(text.contains("Custom 1,Analyst"))
    }

    @Test func cellsWithCommasQuotesAndLineBreaksAreQuoted() {
        var writer = CSVWriter()
        writer.row(["a,b", "say \"hi\"", "two\nlines", "plain"])
        #expect(writer.text == "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",plain\r\n")
    }
}
