// SaveOrRevert: the AddressBook pattern for unsaved changes. Make a change, ask the book
// whether it has unsaved changes, then either save or revert.
import Foundation
import PlainContacts

let folder = FileManager.default.temporaryDirectory.appending(path: "SaveOrRevert-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    let book = try AddressBook(url: folder, options: AddressBookOptions(createIfMissing: true))
    let anna = Person()
    anna.firstName = "Anna"
    anna.lastName = "Haro"
    try book.add(anna)
    print("After adding Anna, unsaved changes: \(book.hasUnsavedChanges)")
    try book.save()
    print("After saving, unsaved changes: \(book.hasUnsavedChanges)")

    // A change we keep.
    anna.nickname = "Annie"
    print("After setting a nickname, unsaved changes: \(book.hasUnsavedChanges)")
    if book.hasUnsavedChanges { try book.save() }

    // A change we throw away.
    anna.lastName = "Typo"
    print("After a mistaken edit, unsaved changes: \(book.hasUnsavedChanges)")
    try book.revert()
    guard let reloaded = book.person(withID: anna.recordID) else {
        print("Anna disappeared.")
        exit(1)
    }
    print("After reverting: \(reloaded.compositeName ?? ""), nickname \(reloaded.nickname ?? "none"), unsaved changes: \(book.hasUnsavedChanges)")

    // Changing a value and changing it back is not an unsaved change.
    reloaded.firstName = "Ann"
    reloaded.firstName = "Anna"
    print("After changing the name and back, unsaved changes: \(book.hasUnsavedChanges)")
} catch {
    print("SaveOrRevert failed: \(error)")
    exit(1)
}
