// GroupMembers: create a group, add people to it (saving each person first, as the store
// requires), and list the members by record ID, sorted by last name.
// Runs on a copy of Examples/SampleBook.
import Foundation
import PlainContacts

let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "SampleBook")
let folder = FileManager.default.temporaryDirectory.appending(path: "GroupMembers-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    try FileManager.default.copyItem(at: sample, to: folder)
    let book = try AddressBook(url: folder)

    // Groups shipped with the sample book, and their members sorted by last name.
    for group in book.allGroups() {
        print("\(group.name ?? "Unnamed group") (group \(group.recordID)):")
        for member in group.members(sortedBy: .lastName) {
            print("  \(member.recordID)\t\(member.compositeName ?? "No Name")")
        }
    }

    // A new group: save it, add a new person, save, add the person to the group, save.
    let climbers = Group(name: "Climbing Club")
    try book.add(climbers)
    try book.save()
    let newcomer = Person()
    newcomer.firstName = "Zoë"
    newcomer.lastName = "Ødegaard"
    try book.add(newcomer)
    do {
        try climbers.addMember(newcomer)
        print("Unexpected: an unsaved person joined a group.")
        exit(1)
    } catch let error as ContactsError where error.code == .personNotSaved {
        print("As expected, an unsaved person cannot join a group yet: save first.")
    }
    try book.save()
    try climbers.addMember(newcomer)
    for person in book.people(matchingName: "Bell") { try climbers.addMember(person) }
    try book.save()

    print("\(climbers.name ?? "") (group \(climbers.recordID)), by last name:")
    for member in climbers.members(sortedBy: .lastName) {
        print("  \(member.recordID)\t\(member.compositeName ?? "No Name")")
    }
} catch {
    print("GroupMembers failed: \(error)")
    exit(1)
}
