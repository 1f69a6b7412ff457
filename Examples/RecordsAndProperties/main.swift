// RecordsAndProperties: create Katie Bell with two phone numbers and a home address in
// Atlanta, save her, read her back from a fresh address book, and show how typed property
// access refuses a value of the wrong type.
import Foundation
import PlainContacts

let folder = FileManager.default.temporaryDirectory.appending(path: "RecordsAndProperties-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    let book = try AddressBook(url: folder, options: AddressBookOptions(createIfMissing: true))

    // Single-value properties.
    let katie = Person()
    try katie.setValue(.string("Katie"), for: .firstName)
    try katie.setValue(.string("Bell"), for: .lastName)

    // A multi-value property: two phone numbers, each with a label.
    var phones = MultiValue<String>()
    phones.add("555-555-1234", label: .mobile)
    phones.add("555-555-4321", label: .home)
    try katie.setValue(.multiString(phones), for: .phones)

    // A multi-value of dictionaries: the home address.
    var addresses = MultiValue<PostalAddress>()
    addresses.add(
        PostalAddress(street: "1234 Laurel Street", city: "Atlanta", state: "GA", zip: "30303",
                      country: "USA", countryCode: "us"),
        label: .home)
    katie.addresses = addresses

    try book.add(katie)
    try book.save()
    print("Saved \(katie.compositeName ?? "") as record \(katie.recordID).")

    // Read her back through a second address book on the same folder.
    let other = try AddressBook(url: folder)
    guard let copy = other.person(withID: katie.recordID) else {
        print("Katie was not found after saving.")
        exit(1)
    }
    print("First name: \(copy.firstName ?? "")")
    print("Last name: \(copy.lastName ?? "")")
    for entry in copy.phones {
        print("Phone (\(entry.label?.localizedName ?? "no label"), id \(entry.identifier)): \(entry.value)")
    }
    for entry in copy.addresses {
        let address = entry.value
        print("Address (\(entry.label?.localizedName ?? "no label")): \(address.street ?? ""), \(address.city ?? ""), \(address.state ?? "") \(address.zip ?? "")")
    }

    // A value of the wrong type is a typed error, not silent corruption.
    do {
        try copy.setValue(.string("555-0000"), for: .phones)
        print("Unexpected: a string was accepted for phones.")
        exit(1)
    } catch let error as ContactsError where error.code == .propertyTypeMismatch {
        print("Refused a text value for phones: \(error.message)")
    }
} catch {
    print("RecordsAndProperties failed: \(error)")
    exit(1)
}
