import Testing
import PlainContacts

@Suite struct PersonWrittenNameTests {
    @Test func aWrittenNameSetsTheFivePartsAndLeavesTheRest() {
        let person = Person()
        person.middleName = "Augusta"
        person.nickname = "Ada"
        person.organization = "Analytical Engines"
        person.setName(written: "Dr. Ada Lovelace PhD")
        #expect(person.prefix == "Dr.")
        #expect(person.firstName == "Ada")
        #expect(person.middleName == nil)
        #expect(person.lastName == "Lovelace")
        #expect(person.suffix == "PhD")
        #expect(person.nickname == "Ada")
        #expect(person.organization == "Analytical Engines")
    }

    @Test func aCommaAFamilyNameFirstScriptAndAParticleKeepTheirOrder() {
        let person = Person()
        person.setName(written: "Lovelace, Ada")
        #expect(person.lastName == "Lovelace")
        #expect(person.firstName == "Ada")
        person.setName(written: "山田 太郎")
        #expect(person.lastName == "山田")
        #expect(person.firstName == "太郎")
        person.setName(written: "Ludwig van Beethoven")
        #expect(person.firstName == "Ludwig")
        #expect(person.lastName == "van Beethoven")
    }

    @Test func aBlankLineRemovesTheNameParts() {
        let person = Person()
        person.setName(written: "Katie Bell")
        person.setName(written: "  ")
        #expect(person.firstName == nil)
        #expect(person.lastName == nil)
    }
}
