import Foundation
import PlainContacts

/// The seeds and the cases that need no store on disk.
extension StoreFuzzer {
    static let personSeed = """
        {
          "addresses": [{"id": 2, "label": "home", "value": {"city": "Atlanta", "countryCode": "us", "street": "1 Main St"}}],
          "birthday": "1987-04-12",
          "created": "2026-11-23T08:07:36Z",
          "dates": [{"id": 5, "label": "anniversary", "value": "--06-01"}],
          "emails": [{"id": 1, "label": "work", "value": "katie@example.com"}],
          "firstName": "Katie",
          "id": 1,
          "instantMessages": [{"id": 3, "value": {"service": "xmpp", "username": "katie"}}],
          "lastName": "Bell",
          "modified": "2026-11-23T08:07:36Z",
          "nameHash": "618fd5820d400360",
          "nextValueID": 6,
          "phones": [{"id": 0, "label": "mobile", "value": "555-555-1234"}, {"value": "555-0100"}],
          "socialProfiles": [{"id": 4, "value": {"service": "x", "url": "https://x.example/katie"}}],
          "x-kept": {"list": [1, 2.5, null, true]}
        }

        """

    static func makeSeeds() -> [Target: (data: Data, path: String)] {
        let group = "{\n  \"created\": \"2026-11-23T08:07:36Z\",\n  \"id\": 3,\n  \"name\": \"Friends\"\n}\n"
        let manifest = "{\n  \"compositeNameFormat\": \"firstNameFirst\",\n  \"format\": 1,\n  \"sortOrdering\": \"lastName\"\n}\n"
        return [
            .personFile: (Data(personSeed.utf8), "people/katie-bell-9dw42k.json"),
            .groupFile: (Data(group.utf8), "groups/friends-q97zpt.json"),
            .membersFile: (Data("ada-l-abc123\nkatie-bell-9dw42k\n".utf8), "groups/friends-q97zpt.members"),
            .manifest: (Data(manifest.utf8), "store.json"),
        ]
    }

    /// Reads a damaged file as its kind; when it reads, writes it and reads it back, which must work.
    static func readAndRewrite(_ data: Data, target: Target, path: String) throws -> String? {
        let kind: StoreFileRoundTrip.Kind
        var edit: (Person) -> Void = { _ in }
        switch target {
        case .personFile:
            kind = .person
            edit = { person in
                var phones = person.phones
                phones.add("555-0199")
                person.phones = phones
                _ = person.compositeName
            }
        case .groupFile: kind = .group
        case .membersFile: kind = .members
        default: kind = .manifest
        }
        guard let failure = try StoreFileRoundTrip.reread(data, as: kind, path: path, editing: edit) else { return nil }
        return "what the store wrote cannot be read back: \(failure)"
    }

    /// Three versions of one file, each valid or damaged, through the merge driver; a clean
    /// merge must be readable.
    mutating func mergeCase(input: inout Data) throws -> String? {
        let kinds: [Target] = [.personFile, .personFile, .groupFile, .membersFile, .manifest]
        let kind = kinds[mutator.below(kinds.count)]
        guard let seed = seeds[kind] else { return nil }
        var versions: [Data] = []
        for _ in 0..<3 { versions.append(mutator.below(3) == 0 ? seed.data : mutator.mutate(seed.data)) }
        input = Data()
        for (number, version) in versions.enumerated() {
            if number > 0 { input.append(contentsOf: "\n----\n".utf8) }
            input.append(version)
        }
        let base: Data? = mutator.below(6) == 0 ? nil : versions[0]
        let result = try RecordFileMerger.merge(base: base, ours: versions[1], theirs: versions[2], path: seed.path)
        guard result.conflicts.isEmpty else { return nil }
        do {
            _ = try Self.readAndRewrite(result.merged, target: kind, path: seed.path)
            return nil
        } catch {
            return "a clean merge wrote a file that cannot be read: \(error)"
        }
    }

    /// A damaged `KEY=VALUE` argument of `contacts set`, applied to a person.
    mutating func setCase(input: inout Data) throws -> String? {
        let keys = PropertyEdit.editableKeys + ["id", "created", "nextValueID", "", "phones.id", "x-kept"]
        let key = keys[mutator.below(keys.count)]
        let samples = [
            #"[{"id": 0, "label": "mobile", "value": "555-0100"}, {"label": "home", "value": "555-0101"}]"#,
            #"[{"value": {"city": "Atlanta", "street": "1 Main St"}}]"#, #"[{"value": "--06-01"}]"#,
            #"[{"value": {"service": "xmpp", "username": "k"}}]"#, "1987-04-12", "organization", "Katie",
        ]
        input = mutator.mutate(Data(samples[mutator.below(samples.count)].utf8))
        let text = String(decoding: input, as: UTF8.self)
        let person = try StoreFileRoundTrip.person(fromRecordFile: Data(Self.personSeed.utf8), path: "seed.json")
        try person.apply([try PropertyEdit(key: key, text: text)])
        return nil
    }
}
