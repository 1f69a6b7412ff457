import Foundation
import PlainContacts

/// A small store on disk for ``VCardFuzzer``'s store cases: a saved person in a group. Each
/// case imports damaged vCard bytes into it strictly and then leniently, checks what the
/// imports left, and puts every file back as created.
struct VCardFuzzStore {
    private let root: URL
    /// Every file of the store, `.contacts/` included, by path relative to the store, as created.
    private let original: [String: Data]

    /// Creates the store: one person with a phone and an email, in a group.
    init(root: URL) throws {
        self.root = root
        try Self.makeStore(at: root)
        original = try FuzzFolder.files(in: root)
    }

    /// Makes a store at `root` holding one person with a phone and an email, in a group: what
    /// the fuzzers' store cases start from. A store that holds people already is left alone.
    static func makeStore(at root: URL) throws {
        let book = try AddressBook(url: root, options: AddressBookOptions(createIfMissing: true))
        guard book.personCount == 0 else { return }
        let person = Person()
        person.firstName = "Katie"
        person.lastName = "Bell"
        person.phones = MultiValue([(value: "555-0100", label: .mobile)])
        person.emails = MultiValue([(value: "katie@example.com", label: .work)])
        try book.add(person)
        let group = Group(name: "Friends")
        try book.add(group)
        try book.save()
        try group.addMember(person)
        try book.save()
    }

    /// What one store case found.
    struct Outcome {
        /// Why the case failed, or `nil` when it ended well.
        var failure: String?
        /// Whether the strict import refused the input.
        var strictRefused = false
    }

    /// Imports `input` strictly, then leniently. The case fails unless every import that threw
    /// left every file as it was, and every import that worked left a store that reads back
    /// and whose export of everyone imports again.
    ///
    /// - Throws: ``ContactsError`` when the store cannot be opened or put back.
    func importCase(_ input: Data) throws -> Outcome {
        defer { try? FuzzFolder.restore(original, in: root) }
        let strict = try importChecked(input, strict: true)
        guard strict.failure == nil else { return strict }
        try FuzzFolder.restore(original, in: root)
        let lenient = try importChecked(input, strict: false)
        return Outcome(failure: lenient.failure, strictRefused: strict.strictRefused)
    }

    /// One import; when it throws, the store must be as before; when it works, it must read back.
    private func importChecked(_ input: Data, strict: Bool) throws -> Outcome {
        let mode = strict ? "strict" : "lenient"
        let book = try AddressBook(url: root)
        // Listing first lets the book bring its index in `.contacts/` up to date with the
        // files as restored, which is not the import's doing.
        _ = (book.allPeople(), book.allGroups())
        let before = try FuzzFolder.files(in: root)
        do {
            _ = try book.importVCards(from: input, source: "fuzz.vcf", options: VCardImportOptions(strict: strict))
        } catch is any PlainContactsFailure {
            let after = try FuzzFolder.files(in: root)
            return Outcome(failure: Self.difference(before, after).map { "a failed \(mode) import \($0)" }, strictRefused: strict)
        }
        return Outcome(failure: try readBack().map { "after a \(mode) import, \($0)" })
    }

    /// Opens the store, lists and validates it, exports everyone as 3.0 and 4.0 and imports
    /// both exports again; why that failed, or `nil`.
    private func readBack() throws -> String? {
        do {
            let book = try AddressBook(url: root)
            try book.validate()
            let people = book.allPeople()
            for person in people { _ = (person.compositeName, person.phones, person.addresses) }
            for version in [VCardVersion.v3, .v4] {
                let exported = Data(try book.exportVCards(people, version: version).utf8)
                let report = try book.importVCards(from: exported, source: "export.vcf")
                if let error = report.membershipError { return "re-importing the \(version.rawValue) export failed: \(error)" }
            }
            return nil
        } catch let error as any PlainContactsFailure {
            return "the store does not read back or re-import: \(error)"
        }
    }

    /// What changed from `before` to `after` (a file changed, removed or added), or `nil`.
    static func difference(_ before: [String: Data], _ after: [String: Data]) -> String? {
        for path in before.keys.sorted() where after[path] != before[path] {
            return after[path] == nil ? "removed \(path)" : "changed \(path)"
        }
        if let added = after.keys.sorted().first(where: { before[$0] == nil }) { return "left \(added)" }
        return nil
    }
}
