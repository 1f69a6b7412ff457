import PlainContacts
import Testing

@testable import contacts_bench

@Suite("Field matcher")
struct FieldMatcherTests {
    private func field(_ kind: FieldKind, _ value: String, _ label: ExpectedLabel? = nil) -> SourceField {
        SourceField(line: 1, column: "c", value: value, kind: kind, label: label)
    }

    @Test func findsAValueOnlyInItsOwnPropertyAndItsLabelOnTheValueFound() {
        var view = ImportedPersonView()
        view.phones = [.init(text: "+1 555 0100", label: "workFax"), .init(text: "+1 555 0101", label: "home")]
        view.note = "call +1 555 0102"
        #expect(FieldMatcher.match(field(.phone, "+1  555 0100", .fax(.work)), in: view) == .init(found: true, labelKept: true))
        #expect(FieldMatcher.match(field(.phone, "+1 555 0101", .mobile), in: view) == .init(found: true, labelKept: false))
        #expect(FieldMatcher.match(field(.phone, "+1 555 0102"), in: view).found == false)
        #expect(FieldMatcher.match(field(.other, "+1 555 0102"), in: view).found)
    }

    @Test func findsAddressPartsAndWholeAddressesInOneAddress() {
        var view = ImportedPersonView()
        view.addresses = [(PostalAddress(street: "1 Acme Way\nSuite 4", city: "Springfield"), "work")]
        #expect(FieldMatcher.match(field(.address(.street), "Suite 4", .work), in: view).labelKept)
        #expect(FieldMatcher.match(field(.address(.city), "Springfield"), in: view).found)
        #expect(FieldMatcher.match(field(.address(.formatted), "1 Acme Way, Suite 4\nSpringfield"), in: view).found)
        #expect(!FieldMatcher.match(field(.address(.street), "Suite"), in: view).found)
        #expect(!FieldMatcher.match(field(.address(.region), "IL"), in: view).found)
    }

    @Test func findsDatesWrittenInAnyOrderButNotWithoutTheirYear() throws {
        var view = ImportedPersonView()
        view.birthday = try ContactDate(month: 12, day: 9)
        #expect(FieldMatcher.match(field(.birthdayPart(.month), "december"), in: view).found)
        #expect(FieldMatcher.match(field(.birthday, "9.12."), in: view).found)
        #expect(!FieldMatcher.match(field(.birthday, "1906-12-09"), in: view).found)
        view.birthday = try ContactDate(year: 1906, month: 12, day: 9)
        #expect(FieldMatcher.match(field(.birthday, "12/9/1906"), in: view).found)
    }

    @Test func findsAWholeNameAmongTheNamesParts() {
        var view = ImportedPersonView()
        view.givenName = "Katie"
        view.familyName = "Bell"
        #expect(FieldMatcher.match(field(.displayName, "Bell, Katie"), in: view).found)
        #expect(!FieldMatcher.match(field(.displayName, "Katie Bell-Jordan"), in: view).found)
    }
}
