// QuickStart: pick a person from the address book and show their first name and first phone
// number, or "[None]" when they have none.
//
//     swift run QuickStart            # picks "Appleseed"
//     swift run QuickStart "Katie"    # picks the first person matching "Katie"
import Foundation
import PlainContacts

let folder = FileManager.default.temporaryDirectory.appending(path: "QuickStart-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    let book = try AddressBook(url: folder, options: AddressBookOptions(createIfMissing: true))

    // A few people to pick from.
    let john = Person()
    john.firstName = "John"
    john.lastName = "Appleseed"
    john.phones = MultiValue([(value: "888-555-5512", label: .mobile), (value: "888-555-1212", label: .home)])
    let katie = Person()
    katie.firstName = "Katie"
    katie.lastName = "Bell"
    let anna = Person()
    anna.firstName = "Anna"
    anna.lastName = "Haro"
    anna.phones = MultiValue([(value: "555-522-8243", label: .work)])
    for person in [john, katie, anna] { try book.add(person) }
    try book.save()

    // "Pick" the person: the first match of the query, as the people picker would offer it.
    let query = CommandLine.arguments.dropFirst().first ?? "Appleseed"
    guard let picked = book.people(matchingName: query).first else {
        print("Nobody matches \"\(query)\".")
        exit(1)
    }
    print("Picked: \(picked.compositeName ?? "No Name")")
    print("First name: \(picked.firstName ?? "[None]")")
    let phones = picked.phones
    print("Phone: \(phones.isEmpty ? "[None]" : phones.value(at: 0))")
} catch {
    print("QuickStart failed: \(error)")
    exit(1)
}
