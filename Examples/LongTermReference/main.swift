// LongTermReference: keep a reference to a person outside the address book, then rename the
// person and renumber the record (as a merge of two clones can), and resolve the reference.
import Foundation
import PlainContacts

let folder = FileManager.default.temporaryDirectory.appending(path: "LongTermReference-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    let book = try AddressBook(url: folder, options: AddressBookOptions(createIfMissing: true))
    let katie = Person()
    katie.firstName = "Katie"
    katie.lastName = "Bell"
    try book.add(katie)
    try book.save()

    guard let reference = book.reference(to: katie) else {
        print("No reference for an unsaved person.")
        exit(1)
    }
    // The text form is what another program would store.
    let stored = reference.description
    print("Stored reference \(stored) for record \(katie.recordID).")

    // Katie marries and changes her name.
    katie.lastName = "Bell-Appleseed"
    try book.save()

    // Another clone had also created a record with Katie's ID; after the merge, the
    // duplicate-ID rule renumbers Katie's record. Simulate it by editing her file's "id".
    let peopleFolder = folder.appending(path: "people")
    for name in try FileManager.default.contentsOfDirectory(atPath: peopleFolder.path) where name.hasSuffix(".json") {
        let file = peopleFolder.appending(path: name)
        let text = try String(contentsOf: file, encoding: .utf8)
        let renumbered = text.replacingOccurrences(of: "\"id\": \(katie.recordID)", with: "\"id\": 99")
        try Data(renumbered.utf8).write(to: file)
    }

    let later = try AddressBook(url: folder)
    guard let saved = PersonReference(stored) else {
        print("The stored text is not a reference.")
        exit(1)
    }
    switch later.resolve(saved) {
    case .found(let person):
        print("Found \(person.compositeName ?? "") under the same ID \(person.recordID).")
    case .reidentified(let person, let fresh):
        print("Re-identified \(person.compositeName ?? ""): record \(saved.recordID) is now \(person.recordID).")
        print("Store the fresh reference: \(fresh)")
    case .ambiguous(let people):
        print("\(people.count) people could be the one; ask the user.")
    case .notFound:
        print("The person is gone.")
        exit(1)
    }
} catch {
    print("LongTermReference failed: \(error)")
    exit(1)
}
