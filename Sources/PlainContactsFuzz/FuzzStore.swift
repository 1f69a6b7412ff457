import Foundation
import PlainContacts

/// A small store on disk for ``StoreFuzzer``'s store cases: each case damages one of its files,
/// uses the store, checks that no other file changed, and puts every file back.
struct FuzzStore {
    private let root: URL
    /// Every file of the store outside `.contacts/`, by path relative to the store, as created.
    private let original: [String: Data]

    /// Creates the store: three people (one with several multi-values) and a group of two.
    init(root: URL) throws {
        self.root = root
        let book = try AddressBook(url: root, options: AddressBookOptions(createIfMissing: true))
        var people: [Person] = []
        for (first, last) in [("Katie", "Bell"), ("John", "Appleseed"), ("Ada", "Lovelace")] {
            let person = Person()
            person.firstName = first
            person.lastName = last
            people.append(person)
            try book.add(person)
        }
        people[0].phones = MultiValue([(value: "555-0100", label: .mobile), (value: "555-0101", label: .work)])
        people[0].emails = MultiValue([(value: "katie@example.com", label: .work)])
        let group = Group(name: "Friends")
        try book.add(group)
        try book.save()
        for person in people.prefix(2) { try group.addMember(person) }
        try book.save()
        original = try FuzzFolder.files(in: root, excluding: ".contacts")
    }

    /// Damages one file, opens, lists and edits the store and saves another person; the
    /// failure message when a file other than the damaged one and the edited person's changed.
    mutating func damage(using mutator: inout FuzzMutator, input: inout Data) throws -> String? {
        let candidates = original.keys.filter { $0.hasSuffix(".json") || $0.hasSuffix(".members") }.sorted()
        let target = candidates[mutator.below(candidates.count)]
        input = mutator.mutate(original[target] ?? Data())
        try input.write(to: root.appending(path: target), options: .atomic)
        defer { try? FuzzFolder.restore(original, in: root, excluding: ".contacts") }
        var edited: String?
        do {
            let book = try AddressBook(url: root)
            let people = book.allPeople()
            for group in book.allGroups() { _ = group.members() }
            for person in people { _ = (person.compositeName, person.phones, person.emails) }
            if let person = people.first(where: { $0.key.map { "people/\($0.rawValue).json" } != target }), let key = person.key {
                person.note = "changed \(mutator.below(1000))"
                edited = "people/\(key.rawValue).json"
                try book.save()
            }
        } catch is any PlainContactsFailure {}
        let now = try FuzzFolder.files(in: root, excluding: ".contacts")
        for (path, bytes) in original where path != target && path != edited && now[path] != bytes {
            return now[path] == nil ? "\(path) was removed" : "\(path) changed"
        }
        if let added = now.keys.first(where: { original[$0] == nil }) { return "\(added) appeared" }
        return nil
    }
}
