// SortPeople: list the whole address book in the user's sort ordering, as the contacts list
// does. Runs on a copy of Examples/SampleBook; pass "first" or "last" to choose the ordering.
import Foundation
import PlainContacts

let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "SampleBook")
let folder = FileManager.default.temporaryDirectory.appending(path: "SortPeople-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    try FileManager.default.copyItem(at: sample, to: folder)
    let book = try AddressBook(url: folder)
    switch CommandLine.arguments.dropFirst().first {
    case "first": book.sortOrdering = .firstName
    case "last": book.sortOrdering = .lastName
    default: break
    }
    print("\(book.personCount) people sorted by \(book.sortOrdering == .firstName ? "first" : "last") name:")
    for person in book.allPeople(sortedBy: book.sortOrdering) {
        print("  \(person.compositeName ?? "No Name")")
    }
} catch {
    print("SortPeople failed: \(error)")
    exit(1)
}
