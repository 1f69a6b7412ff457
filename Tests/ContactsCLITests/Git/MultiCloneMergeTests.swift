import Foundation
import TestTags
import Testing

/// The acceptance test of merging clones: several real Git clones of one store make random
/// edits that never truly conflict, commit, and pull from each other in random order. At the
/// end, after everyone has pulled everyone, no pull conflicted, every clone holds the same
/// bytes, every edit is there, no removal was undone and every reference resolves.
///
/// Edits never truly conflict because each clone owns what it changes: the people it added
/// (only it edits or removes them), one property on every person it may edit, the group
/// memberships it added (only it removes them), memberships of one share of the people every
/// clone starts with (who are never removed), and the removal of the phone numbers the clone
/// before it added to those people.
///
/// The run is seeded (see ``seeds``); failures print the seed.
@Suite struct MultiCloneMergeTests {
    static let cloneCount = 3
    static let rounds = 5
    static let seedPeople = ["Ada Seed", "Ben Seed", "Cy Seed", "Di Seed"]
    static let seedGroups = ["Friends", "Work"]
    /// The property clone `i` sets, on the people it starts with and on its own.
    static let ownedProperties = ["jobTitle", "department", "nickname", "note"]

    /// The seed every run tries: fixed, so that a failure in CI replays exactly. Set
    /// `CONTACTS_MULTI_CLONE_SEED` to a number to replay one, or to `random` for a new one
    /// (`for i in $(seq 50); do CONTACTS_MULTI_CLONE_SEED=random swift test --filter
    /// MultiClone; done` is the longer run).
    static var seeds: [UInt64] {
        switch ProcessInfo.processInfo.environment["CONTACTS_MULTI_CLONE_SEED"] {
        case "random"?: [UInt64.random(in: 1...UInt64.max)]
        case let text?: UInt64(text).map { [$0] } ?? []
        case nil: [20261124]
        }
    }

    @Test(.tags(.slow), .slowTestsEnabled, arguments: seeds)
    func clonesMakingRandomEditsAndPullingEachOtherEndEqualWithNothingLost(seed: UInt64) throws {
        var run = try Run(seed: seed)
        try run.start()
        for round in 0..<Self.rounds {
            for clone in (0..<Self.cloneCount).shuffled(using: &run.random) {
                for _ in 0..<Int.random(in: 1...3, using: &run.random) { try run.edit(in: clone) }
                try run.commit(in: clone)
            }
            // A repair in the middle of the run must change nothing another clone could
            // conflict with (it once rewrote files only to write their settled IDs).
            if round == Self.rounds / 2 { try run.repair(in: Int.random(in: 0..<Self.cloneCount, using: &run.random)) }
            for _ in 0..<Self.cloneCount {
                let puller = Int.random(in: 0..<Self.cloneCount, using: &run.random)
                let source = (puller + Int.random(in: 1..<Self.cloneCount, using: &run.random)) % Self.cloneCount
                guard try run.pull(into: puller, from: source) else { break }
            }
            if !run.failures.isEmpty { break }
        }
        if run.failures.isEmpty { try run.converge() }
        if run.failures.isEmpty { try run.checkInvariants() }
        let report = "seed \(seed) (replay with CONTACTS_MULTI_CLONE_SEED=\(seed)):\n" + run.failures.joined(separator: "\n")
            + "\nedits:\n" + run.journal.joined(separator: "\n")
        #expect(run.failures.isEmpty, Comment(rawValue: report))
    }
}

/// What every clone must hold once all have pulled each other.
private struct ExpectedBook {
    struct Person {
        /// The clone that added the person, or `nil` for the people every clone starts with.
        var owner: Int?
        var properties: [String: String] = [:]
        var phones: Set<String> = []
    }

    var people: [String: Person] = [:]
    var groups: [String: Set<String>] = [:]
}

/// One run of the test: the clones, the edits made so far and what went wrong.
private struct Run {
    var random: SplitMix64
    var expected = ExpectedBook()
    var failures: [String] = []
    var journal: [String] = []
    /// The memberships each clone added and has not removed.
    private var addedMembers: [[(group: String, person: String)]]
    /// The phone numbers each clone may remove: those it added to its own people, and those the
    /// clone before it added to the people every clone starts with (so that a number is
    /// removed by a clone other than the one that added it, once it has pulled it).
    private var removablePhones: [[(person: String, phone: String)]]
    private var counter = 0
    private let sandbox: CLISandbox
    private let git: GitRepositories
    private let clones: [URL]

    init(seed: UInt64) throws {
        random = SplitMix64(seed: seed)
        let sandbox = try CLISandbox()
        let git = GitRepositories(sandbox: sandbox)
        self.sandbox = sandbox
        self.git = git
        clones = (0..<MultiCloneMergeTests.cloneCount).map { git.folder("clone\($0)") }
        addedMembers = Array(repeating: [], count: clones.count)
        removablePhones = Array(repeating: [], count: clones.count)
    }

    // MARK: Setting up

    /// A store made with `init --git` holding the starting people and groups, cloned and set up
    /// with `git-setup` in every clone.
    mutating func start() throws {
        let origin = git.folder("origin")
        try succeed(["init", "--git"], store: origin)
        for name in MultiCloneMergeTests.seedPeople {
            let parts = name.split(separator: " ").map(String.init)
            try succeed(["add", "--first", parts[0], "--last", parts[1], "--commit"], store: origin)
            expected.people[name] = ExpectedBook.Person(owner: nil)
        }
        for group in MultiCloneMergeTests.seedGroups {
            try succeed(["group", "create", group, "--commit"], store: origin)
            expected.groups[group] = []
        }
        for clone in clones {
            try git.git(["clone", "--quiet", origin.path(percentEncoded: false), clone.lastPathComponent], in: sandbox.root)
            try succeed(["git-setup"], store: clone)
        }
    }

    // MARK: Editing

    /// The edits a clone makes, each with how often it is drawn.
    private enum Edit: CaseIterable {
        case addPerson, setProperty, addPhone, removePhone, removePerson, createGroup, addMember, removeMember

        var weight: Int {
            switch self {
            case .addPhone: 3
            case .addPerson, .removePhone, .addMember: 2
            case .setProperty, .removePerson, .createGroup, .removeMember: 1
            }
        }
    }

    /// One random edit in `clone`, through the `contacts` command, recorded in ``expected``;
    /// an edit that has nothing to work on is replaced by adding a person.
    mutating func edit(in clone: Int) throws {
        let view = try view(of: clone)
        counter += 1
        var draw = Int.random(in: 0..<Edit.allCases.map(\.weight).reduce(0, +), using: &random)
        let edit = Edit.allCases.first { edit in
            draw -= edit.weight
            return draw < 0
        } ?? .addPerson
        let done: Bool
        switch edit {
        case .addPerson: done = false
        case .setProperty: done = try setProperty(in: clone, view: view)
        case .addPhone: done = try addPhone(in: clone, view: view)
        case .removePhone: done = try removePhone(in: clone, view: view)
        case .removePerson: done = try removePerson(in: clone, view: view)
        case .createGroup: done = try createGroup(in: clone)
        case .addMember: done = try addMember(in: clone, view: view)
        case .removeMember: done = try removeMember(in: clone, view: view)
        }
        if !done { try addPerson(in: clone) }
    }

    /// The people `clone` may edit: those every clone starts with, and its own.
    private func editable(by clone: Int) -> [String] {
        expected.people.filter { $0.value.owner == nil || $0.value.owner == clone }.keys.sorted()
    }

    private func own(by clone: Int) -> [String] {
        expected.people.filter { $0.value.owner == clone }.keys.sorted()
    }

    private mutating func addPerson(in clone: Int) throws {
        let (first, last) = ("P\(clone)x\(counter)", "Clone\(clone)")
        try succeed(["add", "--first", first, "--last", last], store: clones[clone], note: "add \(first) \(last)")
        expected.people["\(first) \(last)"] = ExpectedBook.Person(owner: clone)
    }

    private mutating func setProperty(in clone: Int, view: View) throws -> Bool {
        let name = try pick(editable(by: clone))
        let key = MultiCloneMergeTests.ownedProperties[clone]
        let value = "v\(counter)"
        try succeed(["set", try view.id(name), "\(key)=\(value)"], store: clones[clone], note: "set \(key) of \(name)")
        expected.people[name]?.properties[key] = value
        return true
    }

    /// Adds a number, mostly to one of the first two people every clone starts with, so that
    /// clones often add numbers to the same person.
    private mutating func addPhone(in clone: Int, view: View) throws -> Bool {
        let shared = Array(MultiCloneMergeTests.seedPeople.prefix(2))
        let name = Int.random(in: 0..<4, using: &random) < 3 ? try pick(shared) : try pick(editable(by: clone))
        let phone = "+1 555 \(clone)\(counter)"
        try setPhones(view.phones(name) + [["value": phone]], of: name, view: view, in: clone, note: "add phone \(phone) to \(name)")
        expected.people[name]?.phones.insert(phone)
        let remover = expected.people[name]?.owner == nil ? (clone + 1) % clones.count : clone
        removablePhones[remover].append((name, phone))
        return true
    }

    private mutating func removePhone(in clone: Int, view: View) throws -> Bool {
        let visible = try removablePhones[clone].indices.filter { index in
            let (name, phone) = removablePhones[clone][index]
            return try view.phones(name).contains { $0["value"] as? String == phone }
        }
        guard let index = visible.randomElement(using: &random) else { return false }
        let (name, phone) = removablePhones[clone].remove(at: index)
        let kept = try view.phones(name).filter { $0["value"] as? String != phone }
        try setPhones(kept, of: name, view: view, in: clone, note: "remove phone \(phone) from \(name)")
        expected.people[name]?.phones.remove(phone)
        return true
    }

    private mutating func removePerson(in clone: Int, view: View) throws -> Bool {
        let own = own(by: clone)
        guard !own.isEmpty else { return false }
        let name = try pick(own)
        try succeed(["rm", try view.id(name)], store: clones[clone], note: "remove \(name)")
        expected.people[name] = nil
        for group in expected.groups.keys { expected.groups[group]?.remove(name) }
        addedMembers[clone].removeAll { $0.person == name }
        removablePhones[clone].removeAll { $0.person == name }
        return true
    }

    private mutating func createGroup(in clone: Int) throws -> Bool {
        let group = "G\(clone)x\(counter)"
        try succeed(["group", "create", group], store: clones[clone], note: "create group \(group)")
        expected.groups[group] = []
        return true
    }

    /// Adds a person this clone may add (its own, or its share of the people every clone
    /// starts with) to a group it sees.
    private mutating func addMember(in clone: Int, view: View) throws -> Bool {
        let share = MultiCloneMergeTests.seedPeople.enumerated().filter { $0.offset % clones.count == clone }.map(\.element)
        let people = own(by: clone) + share
        let candidates = view.groups.sorted().flatMap { group in
            people.filter { expected.groups[group]?.contains($0) == false }.map { (group, $0) }
        }
        guard !candidates.isEmpty else { return false }
        let (group, name) = candidates[Int.random(in: 0..<candidates.count, using: &random)]
        try succeed(["group", "add", group, try view.id(name)], store: clones[clone], note: "add \(name) to \(group)")
        expected.groups[group]?.insert(name)
        addedMembers[clone].append((group, name))
        return true
    }

    private mutating func removeMember(in clone: Int, view: View) throws -> Bool {
        guard !addedMembers[clone].isEmpty else { return false }
        let index = Int.random(in: 0..<addedMembers[clone].count, using: &random)
        let (group, name) = addedMembers[clone].remove(at: index)
        try succeed(["group", "remove", group, try view.id(name)], store: clones[clone], note: "remove \(name) from \(group)")
        expected.groups[group]?.remove(name)
        return true
    }

    private mutating func setPhones(_ entries: [[String: Any]], of name: String, view: View, in clone: Int, note: String) throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys]), as: UTF8.self)
        try succeed(["set", try view.id(name), "phones=" + json], store: clones[clone], note: note)
    }

    private mutating func pick(_ names: [String]) throws -> String {
        try #require(!names.isEmpty)
        return names[Int.random(in: 0..<names.count, using: &random)]
    }

    // MARK: Git

    /// Runs `contacts doctor --fix` in `clone`, which must find nothing to repair, and commits.
    mutating func repair(in clone: Int) throws {
        let fixed = try succeed(["doctor", "--fix", "--json"], store: clones[clone], note: "doctor --fix")
        let report = try #require(JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any])
        if (report["findings"] as? [Any])?.isEmpty != true { failures.append("doctor silent: clone\(clone) found \(fixed.stdout)") }
        try commit(in: clone)
    }

    /// Commits everything `clone` changed, if anything.
    mutating func commit(in clone: Int) throws {
        try git.git(["add", "-A"], in: clones[clone])
        guard try git.git(["diff", "--cached", "--quiet"], in: clones[clone], allowFailure: true).status != 0 else { return }
        try git.git(["commit", "--quiet", "-m", "clone \(clone)"], in: clones[clone])
    }

    /// `clone` pulls from `source`; `false` (with the failure noted) when the pull conflicted.
    mutating func pull(into clone: Int, from source: Int) throws -> Bool {
        journal.append("clone\(clone): pull clone\(source)")
        let pulled = try git.git(
            ["pull", "--quiet", "--no-rebase", "--no-edit", clones[source].path(percentEncoded: false), "HEAD"], in: clones[clone],
            allowFailure: true)
        guard pulled.status != 0 else { return true }
        let conflicted = try git.git(["diff", "--name-only", "--diff-filter=U"], in: clones[clone], allowFailure: true).lines
        failures.append(
            "no conflict: clone\(clone) pulling clone\(source) conflicted in \(conflicted.joined(separator: ", ")) \(pulled)")
        return false
    }

    /// Everyone pulls everyone: the first clone pulls the others, then they pull it.
    mutating func converge() throws {
        for source in 1..<clones.count where failures.isEmpty { _ = try pull(into: 0, from: source) }
        for clone in 1..<clones.count where failures.isEmpty { _ = try pull(into: clone, from: 0) }
    }

    // MARK: Invariants

    mutating func checkInvariants() throws {
        let first = try cloneFiles(of: clones[0])
        for clone in clones.indices {
            let name = "clone\(clone)"
            let status = try git.git(["status", "--porcelain"], in: clones[clone]).stdout
            if !status.isEmpty { failures.append("clean work tree: \(name) has uncommitted changes:\n\(status)") }
            let contents = try cloneFiles(of: clones[clone])
            for path in Set(first.keys).union(contents.keys).sorted() where first[path] != contents[path] {
                failures.append("every clone equal: \(path) differs between clone0 and \(name)")
            }
            try checkContents(of: clone)
            checkReferences(contents, in: name)
        }
    }

    /// Nothing lost and no removal undone: the clone's people, properties, phones and groups
    /// are exactly what the edits made.
    private mutating func checkContents(of clone: Int) throws {
        let name = "clone\(clone)"
        let view = try view(of: clone)
        for person in view.repeatedNames {
            failures.append("nothing lost: \(name) has two people named \(person)")
        }
        for person in Set(expected.people.keys).union(view.people.keys).sorted() {
            guard let want = expected.people[person] else {
                failures.append("no removal undone: \(name) still has the removed person \(person)")
                continue
            }
            guard let record = view.people[person] else {
                failures.append("nothing lost: \(name) lost the person \(person)")
                continue
            }
            for key in MultiCloneMergeTests.ownedProperties where record[key] as? String != want.properties[key] {
                failures.append("nothing lost: \(name), \(person): \(key) is \(record[key] ?? "missing"), expected \(want.properties[key] ?? "none")")
            }
            let phones = Set((record["phones"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String })
            if phones != want.phones {
                failures.append(
                    "nothing lost, no removal undone: \(name), \(person): phones \(phones.sorted()), expected \(want.phones.sorted())")
            }
        }
        for group in Set(expected.groups.keys).union(view.groups).sorted() {
            let members = Set(view.people.filter { ($0.value["groups"] as? [String] ?? []).contains(group) }.keys)
            if !view.groups.contains(group) {
                failures.append("nothing lost: \(name) lost the group \(group)")
            } else if members != expected.groups[group] {
                failures.append(
                    "nothing lost, no removal undone: \(name), group \(group): members \(members.sorted()), expected \((expected.groups[group] ?? []).sorted())")
            }
        }
    }

    /// References resolve: every membership line names a person file, every group file has its
    /// membership file beside it.
    private mutating func checkReferences(_ contents: [String: Data], in name: String) {
        for (path, data) in contents.sorted(by: { $0.key < $1.key }) where path.hasPrefix("groups/") {
            if path.hasSuffix(".json"), contents[String(path.dropLast(5)) + ".members"] == nil {
                failures.append("references resolve: \(name), \(path) has no membership file")
            }
            guard path.hasSuffix(".members") else { continue }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where contents["people/\(line).json"] == nil {
                failures.append("references resolve: \(name), \(path) names \(line), which has no person file")
            }
        }
    }

    // MARK: Running `contacts`

    private mutating func view(of clone: Int) throws -> View {
        try View(
            people: succeed(["list", "--json"], store: clones[clone]).stdout,
            groups: succeed(["group", "list", "--json"], store: clones[clone]).stdout)
    }

    @discardableResult
    private mutating func succeed(_ arguments: [String], store: URL, note: String? = nil) throws -> CLIResult {
        if let note { journal.append("\(store.lastPathComponent): \(note)") }
        var environment = try git.environment
        environment["CONTACTS_DIR"] = store.path(percentEncoded: false)
        let result = try sandbox.run(arguments, environment: environment)
        try #require(result.status == 0, "contacts \(arguments.joined(separator: " ")) in \(store.lastPathComponent) failed: \(result)")
        return result
    }
}

/// What `contacts list --json` shows of one clone.
private struct View {
    /// Each person's record, by composite name.
    var people: [String: [String: Any]] = [:]
    /// The names of the groups.
    var groups: Set<String> = []
    /// Names more than one person has (every edit gives a new person a new name).
    var repeatedNames: [String] = []

    init(people listing: String, groups groupListing: String) throws {
        let records = try #require(JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]])
        for record in records {
            let name = try #require(record["compositeName"] as? String)
            if people[name] != nil { repeatedNames.append(name) }
            people[name] = record
        }
        let groupRecords = try #require(JSONSerialization.jsonObject(with: Data(groupListing.utf8)) as? [[String: Any]])
        groups = Set(try groupRecords.map { try #require($0["name"] as? String) })
    }

    /// The record ID the clone shows for the person named `name`.
    func id(_ name: String) throws -> String {
        String(try #require(people[name]?["id"] as? Int, "no person \(name) in the listing"))
    }

    /// The person's phone entries, as `contacts set` takes them back.
    func phones(_ name: String) throws -> [[String: Any]] {
        try #require(people[name], "no person \(name) in the listing")["phones"] as? [[String: Any]] ?? []
    }
}
