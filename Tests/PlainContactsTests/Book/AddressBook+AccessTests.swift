import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookAccessTests {
    private func storeWithKatie() throws -> TemporaryStore {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        return store
    }

    @Test func anAuthorizedClientOpensTheRealBook() throws {
        let store = try storeWithKatie()
        try AccessConsentStore(storeURL: store.storeURL).setStatus(.authorized, for: "com.example.mailer")
        let book = try AddressBook(url: store.storeURL, options: AddressBookOptions(client: "com.example.mailer"))
        #expect(book.personCount == 1)
    }

    @Test func anUndecidedClientGetsAnEmptyBookWhoseWritesFail() throws {
        let store = try storeWithKatie()
        let book = try AddressBook(url: store.storeURL, options: AddressBookOptions(client: "com.example.mailer"))
        #expect(book.personCount == 0)
        #expect(book.allPeople().isEmpty)
        #expect {
            try book.add(makePerson("John", "Appleseed"))
        } throws: { ($0 as? ContactsError)?.code == .operationNotPermittedByUser }
        #expect {
            try book.save()
        } throws: { ($0 as? ContactsError)?.code == .operationNotPermittedByUser }
    }

    @Test(arguments: [AuthorizationStatus.denied])
    func aDeniedClientCannotOpenTheBook(_ status: AuthorizationStatus) throws {
        let store = try storeWithKatie()
        try AccessConsentStore(storeURL: store.storeURL).setStatus(status, for: "com.example.mailer")
        #expect {
            _ = try AddressBook(url: store.storeURL, options: AddressBookOptions(client: "com.example.mailer"))
        } throws: { ($0 as? ContactsError)?.code == .operationNotPermittedByUser }
    }

    @Test func aRestrictedClientCannotOpenTheBook() throws {
        let store = try storeWithKatie()
        try store.write("{\"restrictedClients\": [\"com.example.mailer\"]}\n", to: ".contacts/policy.json")
        #expect {
            _ = try AddressBook(url: store.storeURL, options: AddressBookOptions(client: "com.example.mailer"))
        } throws: { ($0 as? ContactsError)?.code == .operationNotPermittedByUser }
    }

    @Test func theOwnersToolsAreAlwaysAuthorized() throws {
        let store = try storeWithKatie()
        let book = try AddressBook(url: store.storeURL, options: AddressBookOptions(client: AccessConsentStore.ownerClient))
        #expect(book.personCount == 1)
    }
}
