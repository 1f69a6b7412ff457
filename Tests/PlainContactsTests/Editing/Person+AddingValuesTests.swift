import Testing

@testable import PlainContacts

@Suite struct PersonAddingValuesTests {
    @Test func aValueIsAddedOnceComparedAsMergesCompareIt() throws {
        let person = Person()
        #expect(try person.addValue("+1 (555) 0100", label: .mobile, to: .phones))
        #expect(try !person.addValue("+15550100", label: .work, to: .phones))
        #expect(try person.addValue("+1 555 0199", to: .phones))
        #expect(person.phones.values == ["+1 (555) 0100", "+1 555 0199"])
        #expect(person.phones.label(at: 0) == .mobile)
        #expect(try person.addValue("Kim@Example.com", to: .emails))
        #expect(try !person.addValue(" kim@example.COM ", to: .emails))
        #expect(try person.addValue("https://a.example/", to: .urls))
        #expect(try person.addValue("https://A.example/", to: .urls))
    }

    @Test func anAddedValueGetsAnIdentifierNoEntryHadAndKeepsTheOthers() throws {
        let person = Person()
        try person.addValue("1", to: .phones)
        try person.addValue("2", to: .phones)
        let first = person.phones.identifier(at: 0)
        let retired = person.phones.identifier(at: 1)
        var phones = person.phones
        phones.remove(at: 1)
        person.phones = phones
        try person.addValue("3", to: .phones)
        #expect(person.phones.identifier(at: 0) == first)
        #expect(person.phones.values == ["1", "3"])
        #expect(person.phones.identifier(at: 1) != first && person.phones.identifier(at: 1) != retired)
    }

    @Test func aPropertyThatIsNoListOfTextIsRefused() {
        let person = Person()
        #expect {
            try person.addValue("x", to: .note)
        } throws: { ($0 as? ContactsError)?.code == .propertyTypeMismatch }
    }

    @Test func anAddressIsAddedOnce() throws {
        let person = Person()
        let home = PostalAddress(street: "1 Main St", city: "Springfield")
        #expect(try person.addAddress(home, label: .home))
        #expect(try !person.addAddress(home, label: .work))
        #expect(person.addresses.values.count == 1)
    }
}
