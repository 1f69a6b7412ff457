import Testing
@testable import PlainContacts

@Suite struct PersonFilterTests {
    private func kim() -> Person {
        let person = Person()
        person.firstName = "Kim"
        person.organization = "Ｃafé Acme"
        var phones = MultiValue<String>()
        phones.add("+1 (555) 0100", label: .mobile)
        person.phones = phones
        var emails = MultiValue<String>()
        emails.add("Kim@Example.com")
        person.emails = emails
        return person
    }

    @Test func everyFilterGivenMustMatch() {
        let person = kim()
        #expect(PersonFilter().matches(person))
        #expect(PersonFilter(email: "kim@EXAMPLE").matches(person))
        #expect(PersonFilter(phone: "5550100").matches(person))
        #expect(PersonFilter(phone: "５５５-０１").matches(person))
        #expect(PersonFilter(organization: "cafe acme").matches(person))
        #expect(PersonFilter(email: "kim@", phone: "555", organization: "acme").matches(person))
        #expect(!PersonFilter(email: "kim@", phone: "999").matches(person))
        #expect(!PersonFilter(organization: "globex").matches(Person()))
    }

    @Test func aPhoneWithoutDigitsLeavesTheFilterEmptyForTheCallerToRefuse() {
        #expect(PersonFilter(phone: "call me").phoneDigits == "")
    }
}
