import Foundation
import PlainContacts

// Lists the people of a store: `contacts [--store DIR] [list]`.
var arguments = Array(CommandLine.arguments.dropFirst())
var folder = ProcessInfo.processInfo.environment["CONTACTS_DIR"].map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".local/share/contacts")
if let index = arguments.firstIndex(of: "--store"), index + 1 < arguments.count {
    folder = URL(fileURLWithPath: arguments[index + 1])
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.isEmpty || arguments == ["list"] else {
    FileHandle.standardError.write(Data("usage: contacts [--store DIR] list\n".utf8))
    exit(64)
}
do {
    let book = try AddressBook(url: folder)
    for person in book.allPeople(sortedBy: book.sortOrdering) {
        print("\(person.recordID)\t\(person.compositeName ?? "")")
    }
} catch let error as ContactsError {
    FileHandle.standardError.write(Data("contacts: \(error)\n".utf8))
    exit(error.code == .notAStore ? 66 : error.code == .malformedFile ? 65 : 1)
}
