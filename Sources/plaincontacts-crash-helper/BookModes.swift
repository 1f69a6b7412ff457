import FoundationEssentials
import PlainContacts

/// The subcommands that save through an ``AddressBook``: `book-save`, `book-edit` and `add`.
///
/// Each opens the store as an existing book (the open recovers an interrupted save), makes its
/// changes, prints "saving", saves once, and prints "saved". A test that measures the time from
/// "saving" to the exit knows how long the save itself takes.
enum BookModes {
    /// The note every person added by `book-save` carries.
    static let addedNote = "new"

    /// Every how many added people one gets an image, so that saves also write sidecar files.
    static let imageInterval = 100

    /// `book-save`: adds `count` people named "Crash" "Person <n>" (n in 1...count), each with
    /// the note ``addedNote`` and a phone, every ``imageInterval``-th with a PNG image, and
    /// saves once.
    static func addPeople(store: URL, count: Int) throws {
        let book = try AddressBook(url: store)
        for number in stride(from: 1, through: count, by: 1) {
            let person = Person()
            person.firstName = "Crash"
            person.lastName = "Person \(number)"
            person.note = addedNote
            var phones = MultiValue<String>()
            phones.add("555-\(10_000 + number)", label: .mobile)
            person.phones = phones
            if number % imageInterval == 0 {
                person.setImageData(pngBytes(number))
            }
            try book.add(person)
        }
        try save(book)
    }

    /// `book-edit`: sets every person's note to `note` and saves once.
    static func editNotes(store: URL, note: String) throws {
        let book = try AddressBook(url: store)
        for person in book.allPeople() {
            person.note = note
        }
        try save(book)
    }

    /// `add`: adds one person, saves, and prints its record ID.
    static func addPerson(store: URL, firstName: String, lastName: String) throws {
        let book = try AddressBook(url: store)
        let person = Person()
        person.firstName = firstName
        person.lastName = lastName
        try book.add(person)
        try save(book)
        emit("\(person.recordID)")
    }

    private static func save(_ book: AddressBook) throws {
        emit("saving")
        try book.save()
        emit("saved")
    }

    /// A few bytes that start like a PNG file, different for every number.
    private static func pngBytes(_ number: Int) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("image \(number)\n".utf8)
    }
}
