// RequestAccess: the access-consent flow of a program that wants to read someone's contacts.
//
// A program names itself (a client name), checks its authorization status, asks the user once
// if it has not been decided, and opens the address book only when allowed. Before the user
// decides, the program sees an empty book whose writes fail.
//
// Run it in a terminal to be asked yourself; without a terminal the question cannot be asked,
// so the example then records a scripted "yes", as a settings screen would.
import Dispatch
import Foundation
import PlainContacts

let client = "com.example.quickmail"
let folder = FileManager.default.temporaryDirectory.appending(path: "RequestAccess-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

/// Requests access and waits for the completion handler, which runs on another thread.
func requestAccess(prompt: any AccessPrompt) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let answer = LockedFlag()
    AccessRequest.requestAccess(client: client, store: folder, prompt: prompt) { granted, error in
        if let error { print("  could not record the answer: \(error)") }
        answer.set(granted)
        done.signal()
    }
    done.wait()
    return answer.value
}

/// A Bool shared with the completion handler's thread.
final class LockedFlag: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var stored = false
    func set(_ value: Bool) { lock.withLock { stored = value } }
    var value: Bool { lock.withLock { stored } }
}

do {
    // The owner's store, with one person in it.
    let owner = try AddressBook(url: folder, options: AddressBookOptions(createIfMissing: true))
    let katie = Person()
    katie.firstName = "Katie"
    katie.lastName = "Bell"
    try owner.add(katie)
    try owner.save()

    let consent = AccessConsentStore(storeURL: folder)
    print("Status of \(client): \(consent.status(for: client))")

    // Not decided yet: the program sees an empty book and cannot write.
    let early = try AddressBook(url: folder, options: AddressBookOptions(client: client))
    print("Before asking, the program sees \(early.personCount) people.")
    do {
        try early.add(Person())
    } catch let error as ContactsError where error.code == .operationNotPermittedByUser {
        print("Before asking, writing fails: \(error.code)")
    }

    // Ask the user on the terminal.
    print("Asking the user…")
    var granted = requestAccess(prompt: TerminalAccessPrompt())
    if consent.status(for: client) == .notDetermined {
        print("No terminal to ask on; the status stays \(consent.status(for: client)). Recording a scripted yes.")
        granted = requestAccess(prompt: FixedAccessPrompt(answer: true))
    }
    print("Granted: \(granted); status now \(consent.status(for: client))")

    if granted {
        let book = try AddressBook(url: folder, options: AddressBookOptions(client: client))
        print("With access, the program sees \(book.personCount) people: \(book.allPeople().compactMap(\.compositeName).joined(separator: ", "))")
    }

    // A program the user refused cannot open the book at all.
    try consent.setStatus(.denied, for: "com.example.snoop")
    do {
        _ = try AddressBook(url: folder, options: AddressBookOptions(client: "com.example.snoop"))
        print("Unexpected: a denied program opened the book.")
        exit(1)
    } catch let error as ContactsError where error.code == .operationNotPermittedByUser {
        print("com.example.snoop was denied: \(error.code)")
    }

    // Statuses can be reset, as in the phone's privacy settings.
    try consent.reset(client: client)
    print("After a reset, \(client) is \(consent.status(for: client)) again.")
} catch {
    print("RequestAccess failed: \(error)")
    exit(1)
}
