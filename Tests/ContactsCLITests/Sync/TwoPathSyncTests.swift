import DAVTestSupport
import Foundation
import PlainContacts
import PlainContactsDAV
import TestTags
import Testing

/// The acceptance test of syncing one address book along two paths at once (issue 20): a person
/// with two computers and a phone. Both computers hold clones of the store made as the Git guide
/// says and sync with the same Radicale address book, which the phone edits over CardDAV. Random
/// edits and random orders of `contacts sync`, `git pull` and `git push` end with three settle
/// rounds; after every step the place it touched must hold what ``TwoPathModel`` says (every sync
/// exits 0, every pull merges cleanly, each UID once, every value, no removal undone), and at the
/// end both clones must be byte-equal and clean, `doctor` silent, and every edit everywhere.
///
/// The run is seeded (see ``seeds``); failures print the seed, the broken invariants and every
/// step so far.
@Suite struct TwoPathSyncTests {
    static let seedPeople = ["Ada Seed", "Ben Seed"]
    /// How many settle rounds end a run: each computer commits, syncs, commits, pulls and pushes.
    static let settleRounds = 3

    /// The seeds every run tries: fixed, so that a failure in CI replays exactly. Set
    /// `CONTACTS_TWO_PATH_SEED` to a number to replay one, or to `random` for a new one.
    static var seeds: [UInt64] {
        switch ProcessInfo.processInfo.environment["CONTACTS_TWO_PATH_SEED"] {
        case "random"?: [UInt64.random(in: 1...UInt64.max)]
        case let text?: UInt64(text).map { [$0] } ?? []
        case nil: [20, 20261126, 4_711]
        }
    }

    /// Rounds of random steps before the settle (about six steps each); set
    /// `CONTACTS_TWO_PATH_ROUNDS=25` for the longer run.
    static var rounds: Int {
        ProcessInfo.processInfo.environment["CONTACTS_TWO_PATH_ROUNDS"].flatMap { Int($0) } ?? 7
    }

    @Test(.tags(.slow), .slowTestsEnabled, arguments: seeds)
    func twoComputersAndAPhoneSyncingAndPullingInAnyOrderEndEqualWithNothingLostOrDoubled(seed: UInt64) throws {
        var run = try TwoPathRun(seed: seed)
        run.play(rounds: Self.rounds, settleRounds: Self.settleRounds)
        #expect(run.failures.isEmpty, Comment(rawValue: run.report))
    }
}

// MARK: - The model

/// The owned properties of one person and their phone numbers (as digits), as the model
/// expects them at one place.
private struct ModelPerson: Equatable {
    var properties: [String: String] = [:]
    var phones: Set<String> = []
}

/// What the model expects at one place: people and groups by name (every name is new), and each
/// group's members by name.
private struct ModelBook: Equatable {
    var people: [String: ModelPerson] = [:]
    var groups: [String: Set<String>] = [:]

    func isMember(_ person: String, of group: String) -> Bool { groups[group]?.contains(person) == true }

    /// Removes a person and their memberships, as `contacts rm` does.
    mutating func removePerson(_ name: String) {
        people[name] = nil
        for group in groups.keys { groups[group]?.remove(name) }
    }
}

/// The documented three-way merge both paths make: record by record, property by property,
/// phone numbers and group members as sets. Without a base (a contact two sides met for the
/// first time) a property set on one side only is taken and both sides' numbers are kept.
private struct BookMerge {
    /// What changed differently on both sides; empty when the merge is clean.
    var conflicts: [String] = []

    mutating func merge(base: ModelBook, ours: ModelBook, theirs: ModelBook) -> ModelBook {
        var result = ModelBook()
        for name in Set(base.people.keys).union(ours.people.keys).union(theirs.people.keys).sorted() {
            result.people[name] = person(name, base: base.people[name], ours: ours.people[name], theirs: theirs.people[name])
        }
        // Groups are never removed; a side that lacks one never had it.
        for name in Set(ours.groups.keys).union(theirs.groups.keys).sorted() {
            let base = base.groups[name] ?? []
            result.groups[name] = Self.set(base: base, ours: ours.groups[name] ?? base, theirs: theirs.groups[name] ?? base)
        }
        for (group, members) in result.groups.sorted(by: { $0.key < $1.key }) {
            for member in members.sorted() where result.people[member] == nil {
                conflicts.append("group \(group) names \(member), who was removed")
            }
        }
        return result
    }

    private mutating func person(_ name: String, base: ModelPerson?, ours: ModelPerson?, theirs: ModelPerson?) -> ModelPerson? {
        switch (ours, theirs) {
        case (nil, nil):
            return nil
        case (let kept?, nil), (nil, let kept?):
            guard let base else { return kept }
            if kept == base { return nil }
            conflicts.append("\(name) removed on one side and changed on the other")
            return kept
        case (let ours?, let theirs?):
            var merged = ModelPerson(phones: Self.set(base: base?.phones ?? [], ours: ours.phones, theirs: theirs.phones))
            for key in Set(ours.properties.keys).union(theirs.properties.keys).sorted() {
                let (old, mine, other) = (base?.properties[key], ours.properties[key], theirs.properties[key])
                if mine != other && mine != old && other != old { conflicts.append("\(name): \(key) \(mine ?? "-") / \(other ?? "-")") }
                merged.properties[key] = mine == old ? other : mine
            }
            return merged
        }
    }

    /// Kept: what both sides have, and what either side added since the base.
    static func set(base: Set<String>, ours: Set<String>, theirs: Set<String>) -> Set<String> {
        ours.union(theirs).subtracting(base).union(ours.intersection(theirs))
    }
}

/// The versions that take part in the merges, by where they are.
private enum Place: String, CaseIterable {
    case a = "A", b = "B", origin, server
    case mergeBaseA = "A's merge base", mergeBaseB = "B's merge base"
    case syncBaseA = "A's sync base", syncBaseB = "B's sync base"
}

/// Who edits.
private enum Actor: String, CaseIterable {
    case a = "A", b = "B", phone

    /// The digit that makes this actor's phone numbers its own: 1, 2 or 3.
    var digit: Int { (Actor.allCases.firstIndex(of: self) ?? 0) + 1 }
}

/// One of the two computers, each with a clone of the store.
private enum Computer: String, CaseIterable {
    case a = "A", b = "B"

    var actor: Actor { self == .a ? .a : .b }
    var place: Place { self == .a ? .a : .b }
    var mergeBase: Place { self == .a ? .mergeBaseA : .mergeBaseB }
    var syncBase: Place { self == .a ? .syncBaseA : .syncBaseB }
    /// The property this computer sets, on anyone.
    var property: String { self == .a ? "jobTitle" : "nickname" }
    /// The person every clone starts with whose group memberships this computer changes.
    var sharedPerson: String { self == .a ? "Ada Seed" : "Ben Seed" }
}

/// The eight versions of the address book that take part in the merges, what every place must
/// hold once everything settled, and who owns what.
///
/// Nothing is ever changed differently on two sides, because each actor owns what it changes:
/// computer A sets `jobTitle` (TITLE), computer B `nickname` (NICKNAME), the phone `note` (NOTE),
/// on anyone; each removes only the people or cards it added, the phone numbers it added and the
/// group memberships it added; A puts in groups its own people and Ada Seed, B its own and Ben Seed.
///
/// Owning is not enough with two paths, since Git and a sync each merge three ways against a
/// base of their own: Git against the merge base of the pull, a sync against the version the
/// clone's last sync left. A value that reached a clone by sync but is not in its Git merge base
/// meets a newer value from the origin as a genuine conflict (and a removal beside it as a
/// modify/delete conflict); a card a clone never synced meets the server's version without a
/// base, where a changed value conflicts and a removed phone number comes back. So the model
/// keeps all eight versions (both clones, the origin, the server, and each clone's merge base
/// and sync base), merges them as the Git guide says, and lets an actor change or remove something
/// only once all eight agree on it ("settled"); the same holds for putting someone back in a
/// group they left, which would otherwise meet the removal as an unchanged value. Adding a new
/// person, number, group or membership is always allowed: new things merge cleanly. The model's
/// own merges are checked too: a conflict there is a bug of this test, reported as such.
private struct TwoPathModel {
    static let properties = ["jobTitle", "nickname", "note"]

    private var books: [Place: ModelBook] = [:]
    /// Every actor's edits: what every place holds after the settle.
    private(set) var expected = ModelBook()
    private(set) var removedPeople: Set<String> = []
    private(set) var removedPhones: Set<String> = []
    private(set) var removedMembers: Set<[String]> = []
    /// Who added each person (the seed people have no owner).
    var personOwner: [String: Actor] = [:]
    /// Who added each phone number, and to whom.
    var phoneOwner: [String: (person: String, actor: Actor)] = [:]
    /// Who added each membership, by `[group, person]`.
    var memberOwner: [[String]: Computer] = [:]

    init(seedPeople: [String]) {
        for name in seedPeople { expected.people[name] = ModelPerson() }
        for place in [Place.a, .b, .origin, .mergeBaseA, .mergeBaseB] { books[place] = expected }
    }

    subscript(place: Place) -> ModelBook { books[place] ?? ModelBook() }

    /// Whether the person is still wanted (not removed by their owner).
    func isAlive(_ name: String) -> Bool { expected.people[name] != nil }

    /// An edit made at one place; it is also what every place must hold in the end.
    mutating func edit(at place: Place, _ change: (inout ModelBook) -> Void) {
        change(&books[place, default: ModelBook()])
        change(&expected)
    }

    mutating func noteRemoval(person name: String) { removedPeople.insert(name) }
    mutating func noteRemoval(phone digits: String) { removedPhones.insert(digits) }
    mutating func noteRemoval(member person: String, of group: String) { removedMembers.insert([group, person]) }

    /// `git pull` and `git push`: the clone, the origin and their merge base all become the
    /// merge of the clone's version and the origin's. Returns the conflicts the merge has.
    mutating func pullAndPush(_ computer: Computer) -> [String] { exchange(computer.place, base: computer.mergeBase, .origin) }

    /// `contacts sync`: the clone, the server and the clone's sync base all become the merge of
    /// the clone's version and the server's.
    mutating func sync(_ computer: Computer) -> [String] { exchange(computer.place, base: computer.syncBase, .server) }

    private mutating func exchange(_ ours: Place, base: Place, _ theirs: Place) -> [String] {
        var merge = BookMerge()
        let result = merge.merge(base: self[base], ours: self[ours], theirs: self[theirs])
        for place in [ours, base, theirs] { books[place] = result }
        return merge.conflicts
    }

    /// The value every place agrees on for `aspect` of the person, or `nil` when one of them
    /// lacks the person or says otherwise: a change then could meet a different change.
    func settled<Value: Equatable>(_ name: String, _ aspect: (ModelPerson) -> Value) -> Value? {
        let values = Place.allCases.map { self[$0].people[name].map(aspect) }
        guard let first = values.first ?? nil, values.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// Whether every place agrees that `person` is (or is not) a member of `group`.
    func membershipIsSettled(_ person: String, of group: String, member: Bool) -> Bool {
        Place.allCases.allSatisfy { self[$0].isMember(person, of: group) == member }
    }

    /// Whether the person may be removed: every place holds the same version of them and the
    /// same memberships, so that the removal meets no change anywhere.
    func mayRemove(_ name: String) -> Bool {
        let groups = Place.allCases.reduce(into: Set<String>()) { $0.formUnion(self[$1].groups.keys) }
        return settled(name, { $0 }) != nil
            && groups.allSatisfy { membershipIsSettled(name, of: $0, member: self[.a].isMember(name, of: $0)) }
    }

    /// The places whose version differs from what every place must hold in the end.
    var unsettledPlaces: [Place] { Place.allCases.filter { self[$0] != expected } }
}

// MARK: - The run

/// One step of a round.
private enum Step {
    case computerEdit(Computer)
    case phoneEdit
    case sync(Computer)
    case pullAndPush(Computer)
}

/// A kind of edit, drawn with a weight.
private protocol WeightedEdit: CaseIterable {
    var weight: Int { get }
}

/// The edits a computer makes with `contacts`.
private enum ComputerEdit: WeightedEdit {
    case addPerson, setProperty, addPhone, removePhone, removePerson, createGroup, addMember, removeMember

    var weight: Int {
        switch self {
        case .addPhone: 3
        case .addPerson, .setProperty, .removePhone, .addMember: 2
        case .removePerson, .createGroup, .removeMember: 1
        }
    }
}

/// The edits the phone makes on the server over CardDAV.
private enum PhoneEdit: WeightedEdit {
    case addCard, setNote, addPhone, removePhone, removeCard

    var weight: Int { self == .removeCard ? 1 : 2 }
}

/// One run of the test: the clones, the server, the phone, the model, the steps so far and what
/// went wrong. A step that fails ends the run, so that the journal ends with it.
private struct TwoPathRun {
    private(set) var failures: [String] = []
    private let seed: UInt64
    private var random: SplitMix64
    private var model = TwoPathModel(seedPeople: TwoPathSyncTests.seedPeople)
    private var journal: [String] = []
    private var counter = 0
    private let sandbox: CLISandbox
    private let git: GitRepositories
    private let server: DAVTestServer
    /// The phone: a CardDAV client of the address book both clones sync with.
    private let phone: CardDAVAddressBook

    init(seed: UInt64) throws {
        self.seed = seed
        random = SplitMix64(seed: seed)
        sandbox = try CLISandbox()
        git = GitRepositories(sandbox: sandbox)
        server = try DAVTestServer(.radicale(password: nil))
        phone = try CardDAVAddressBook(
            url: server.addressBookURL, credentials: RemoteCredentials(user: server.user, password: server.password))
    }

    /// The failures, how to replay them and every step so far.
    var report: String {
        "seed \(seed) (replay with CONTACTS_TWO_PATH_SEED=\(seed)):\n" + failures.joined(separator: "\n")
            + "\nsteps:\n" + journal.joined(separator: "\n")
    }

    private func folder(_ computer: Computer) -> URL { git.folder("computer\(computer.rawValue)") }

    /// Sets up, plays the rounds and the settle, and checks the end, stopping at the first step
    /// that fails; a step that cannot be carried out at all (a `contacts` edit refused) fails too.
    mutating func play(rounds: Int, settleRounds: Int) {
        do {
            try start()
            for _ in 0..<rounds where failures.isEmpty { try playRound() }
            for _ in 0..<settleRounds where failures.isEmpty { try settleRound() }
            if failures.isEmpty { try checkEnd() }
        } catch {
            failures.append("every step can be carried out: \(error)")
        }
    }

    // MARK: Setting up

    /// A store made with `init --git` holding the seed people, a bare copy of it as the origin,
    /// and on each computer a clone of the origin set up with `git-setup` and `remote add`.
    private mutating func start() throws {
        let first = git.folder("first")
        try succeed(["init", "--git"], store: first)
        for name in TwoPathSyncTests.seedPeople {
            let parts = name.split(separator: " ").map(String.init)
            try succeed(["add", "--first", parts[0], "--last", parts[1], "--commit"], store: first)
        }
        try git.git(["clone", "--quiet", "--bare", first.path(percentEncoded: false), "origin.git"], in: sandbox.root)
        let origin = git.folder("origin.git").path(percentEncoded: false)
        for computer in Computer.allCases {
            try git.git(["clone", "--quiet", origin, folder(computer).lastPathComponent], in: sandbox.root)
            try succeed(["git-setup"], store: folder(computer))
            try succeed(["remote", "add", "dav", server.baseURL.absoluteString, "--user", server.user], store: folder(computer))
        }
    }

    // MARK: Playing

    /// One round: each actor edits once or twice, and two syncs or pulls happen, all in a
    /// random order.
    private mutating func playRound() throws {
        var steps: [Step] = []
        for computer in Computer.allCases {
            for _ in 0..<Int.random(in: 1...2, using: &random) { steps.append(.computerEdit(computer)) }
        }
        for _ in 0..<Int.random(in: 1...2, using: &random) { steps.append(.phoneEdit) }
        for _ in 0..<2 {
            let computer: Computer = Bool.random(using: &random) ? .a : .b
            steps.append(Bool.random(using: &random) ? .sync(computer) : .pullAndPush(computer))
        }
        steps.shuffle(using: &random)
        for step in steps where failures.isEmpty { try perform(step) }
    }

    /// One settle round: each computer commits, syncs, commits, pulls and pushes.
    private mutating func settleRound() throws {
        for computer in Computer.allCases {
            for step in [Step.sync(computer), .pullAndPush(computer)] where failures.isEmpty { try perform(step) }
        }
    }

    private mutating func perform(_ step: Step) throws {
        counter += 1
        switch step {
        case .computerEdit(let computer): try edit(on: computer)
        case .phoneEdit: try phoneEdit()
        case .sync(let computer): try sync(computer)
        case .pullAndPush(let computer): try pullAndPush(computer)
        }
    }

    private mutating func note(_ actor: String, _ text: String) {
        journal.append("\(counter). \(actor): \(text)")
    }

    private mutating func pick<Item>(_ items: [Item]) -> Item? {
        items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
    }

    private mutating func draw<Edit: WeightedEdit>(_: Edit.Type) -> Edit? {
        var draw = Int.random(in: 0..<Edit.allCases.reduce(0) { $0 + $1.weight }, using: &random)
        return Edit.allCases.first { edit in
            draw -= edit.weight
            return draw < 0
        }
    }

    /// The people a place holds whom no one removed, sorted so that a seed replays.
    private func alivePeople(at place: Place) -> [String] {
        model[place].people.keys.filter(model.isAlive).sorted()
    }

    /// A phone number no one used yet: the actor's digit and the step number.
    private func newPhone(for actor: Actor) -> (text: String, digits: String) {
        let serial = String(format: "%04d", counter)
        return ("+1 555 \(actor.digit)\(serial)", "1555\(actor.digit)\(serial)")
    }

    // MARK: Editing on a computer

    /// One random edit with `contacts` on a computer; an edit with nothing to work on is
    /// replaced by adding a person.
    private mutating func edit(on computer: Computer) throws {
        let view = try listing(of: computer)
        let done: Bool
        switch draw(ComputerEdit.self) ?? .addPerson {
        case .addPerson: done = false
        case .setProperty: done = try setProperty(on: computer, view: view)
        case .addPhone: done = try addPhone(on: computer, view: view)
        case .removePhone: done = try removePhone(on: computer, view: view)
        case .removePerson: done = try removePerson(on: computer, view: view)
        case .createGroup: done = try createGroup(on: computer)
        case .addMember: done = try addMember(on: computer, view: view)
        case .removeMember: done = try removeMember(on: computer, view: view)
        }
        if !done { try addPerson(on: computer) }
        try check(computer.place)
    }

    private mutating func addPerson(on computer: Computer) throws {
        let (first, last) = ("P\(computer.rawValue)x\(counter)", "Clone\(computer.rawValue)")
        let name = "\(first) \(last)"
        var arguments = ["add", "--first", first, "--last", last]
        var person = ModelPerson()
        if Bool.random(using: &random) {
            let number = newPhone(for: computer.actor)
            arguments += ["--phone", number.text]
            person.phones.insert(number.digits)
            model.phoneOwner[number.digits] = (name, computer.actor)
        }
        note(computer.rawValue, "add \(name)" + (person.phones.first.map { " with +\($0)" } ?? ""))
        try succeed(arguments, on: computer)
        model.edit(at: computer.place) { $0.people[name] = person }
        model.personOwner[name] = computer.actor
    }

    /// Sets the computer's own property on someone whose value every place agrees on.
    private mutating func setProperty(on computer: Computer, view: StoreListing) throws -> Bool {
        let key = computer.property
        let candidates = alivePeople(at: computer.place).filter { model.settled($0, { $0.properties[key] }) != nil }
        guard let name = pick(candidates) else { return false }
        let value = "\(key)-\(counter)"
        note(computer.rawValue, "set \(key) of \(name) to \(value)")
        try succeed(["set", try view.id(name), "\(key)=\(value)"], on: computer)
        model.edit(at: computer.place) { $0.people[name]?.properties[key] = value }
        return true
    }

    /// Adds a number, half the time to one of the seed people, so that actors often add numbers
    /// to the same person.
    private mutating func addPhone(on computer: Computer, view: StoreListing) throws -> Bool {
        let people = alivePeople(at: computer.place)
        let seeds = people.filter(TwoPathSyncTests.seedPeople.contains)
        guard let name = Bool.random(using: &random) && !seeds.isEmpty ? pick(seeds) : pick(people) else { return false }
        let number = newPhone(for: computer.actor)
        note(computer.rawValue, "add phone +\(number.digits) to \(name)")
        try setPhones(try view.phones(name) + [["value": number.text]], of: name, view: view, on: computer)
        recordAddedPhone(number.digits, to: name, by: computer.actor, at: computer.place)
        return true
    }

    /// Removes a number this computer added, once every place has it.
    private mutating func removePhone(on computer: Computer, view: StoreListing) throws -> Bool {
        guard let (digits, name) = pickRemovablePhone(of: computer.actor) else { return false }
        note(computer.rawValue, "remove phone +\(digits) from \(name)")
        let kept = try view.phones(name).filter { CardLines.digits($0["value"] as? String ?? "") != digits }
        try setPhones(kept, of: name, view: view, on: computer)
        recordRemovedPhone(digits, from: name, at: computer.place)
        return true
    }

    private mutating func pickRemovablePhone(of actor: Actor) -> (digits: String, person: String)? {
        let removable = model.phoneOwner.filter { digits, owner in
            owner.actor == actor && model.isAlive(owner.person) && model.settled(owner.person, { $0.phones.contains(digits) }) == true
        }
        return pick(removable.keys.sorted()).flatMap { digits in removable[digits].map { (digits, $0.person) } }
    }

    /// Removes a person this computer added, once every place holds the same version of them.
    private mutating func removePerson(on computer: Computer, view: StoreListing) throws -> Bool {
        let own = alivePeople(at: computer.place).filter { model.personOwner[$0] == computer.actor && model.mayRemove($0) }
        guard let name = pick(own) else { return false }
        note(computer.rawValue, "remove \(name)")
        try succeed(["rm", try view.id(name)], on: computer)
        recordRemovedPerson(name, at: computer.place)
        return true
    }

    /// Notes a number added at one place, and who may remove it.
    private mutating func recordAddedPhone(_ digits: String, to name: String, by actor: Actor, at place: Place) {
        model.edit(at: place) { $0.people[name]?.phones.insert(digits) }
        model.phoneOwner[digits] = (name, actor)
    }

    /// Notes a number removed at one place; it must never come back.
    private mutating func recordRemovedPhone(_ digits: String, from name: String, at place: Place) {
        model.edit(at: place) { $0.people[name]?.phones.remove(digits) }
        model.phoneOwner[digits] = nil
        model.noteRemoval(phone: digits)
    }

    /// Notes a person removed at one place, with their numbers and memberships; they must never
    /// come back.
    private mutating func recordRemovedPerson(_ name: String, at place: Place) {
        model.edit(at: place) { $0.removePerson(name) }
        model.noteRemoval(person: name)
        model.phoneOwner = model.phoneOwner.filter { $0.value.person != name }
        model.memberOwner = model.memberOwner.filter { $0.key[1] != name }
    }

    private mutating func createGroup(on computer: Computer) throws -> Bool {
        let group = "G\(computer.rawValue)x\(counter)"
        note(computer.rawValue, "create group \(group)")
        try succeed(["group", "create", group], on: computer)
        model.edit(at: computer.place) { $0.groups[group] = [] }
        return true
    }

    /// Puts one of this computer's people (its own, or its seed person) in a group, once every
    /// place agrees that they are not in it.
    private mutating func addMember(on computer: Computer, view: StoreListing) throws -> Bool {
        let book = model[computer.place]
        let people = alivePeople(at: computer.place).filter { $0 == computer.sharedPerson || model.personOwner[$0] == computer.actor }
        let pairs = book.groups.keys.sorted().flatMap { group in
            people.filter { model.membershipIsSettled($0, of: group, member: false) }.map { [group, $0] }
        }
        guard let pair = pick(pairs) else { return false }
        note(computer.rawValue, "add \(pair[1]) to \(pair[0])")
        try succeed(["group", "add", pair[0], try view.id(pair[1])], on: computer)
        model.edit(at: computer.place) { $0.groups[pair[0]]?.insert(pair[1]) }
        model.memberOwner[pair] = computer
        return true
    }

    /// Takes out of a group someone this computer put in it, once every place has them in it.
    private mutating func removeMember(on computer: Computer, view: StoreListing) throws -> Bool {
        let pairs = model.memberOwner.filter { pair, owner in
            owner == computer && model.membershipIsSettled(pair[1], of: pair[0], member: true)
        }.keys.sorted { $0.lexicographicallyPrecedes($1) }
        guard let pair = pick(pairs) else { return false }
        note(computer.rawValue, "remove \(pair[1]) from \(pair[0])")
        try succeed(["group", "remove", pair[0], try view.id(pair[1])], on: computer)
        model.edit(at: computer.place) { $0.groups[pair[0]]?.remove(pair[1]) }
        model.memberOwner[pair] = nil
        model.noteRemoval(member: pair[1], of: pair[0])
        return true
    }

    private func setPhones(_ entries: [[String: Any]], of name: String, view: StoreListing, on computer: Computer) throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys]), as: UTF8.self)
        try succeed(["set", try view.id(name), "phones=" + json], on: computer)
    }

    // MARK: Editing on the phone

    /// One random edit of the phone, straight on the server; an edit with nothing to work on
    /// is replaced by adding a card.
    private mutating func phoneEdit() throws {
        let done: Bool
        switch draw(PhoneEdit.self) ?? .addCard {
        case .addCard: done = false
        case .setNote: done = try phoneSetsNote()
        case .addPhone: done = try phoneAddsNumber()
        case .removePhone: done = try phoneRemovesNumber()
        case .removeCard: done = try phoneRemovesCard()
        }
        if !done { try phoneAddsCard() }
        try check(.server)
    }

    /// A new card, `PUT` with `If-None-Match: *`.
    private mutating func phoneAddsCard() throws {
        let name = "Phone\(counter) Card"
        let number = newPhone(for: .phone)
        note("phone", "add card \(name) with +\(number.digits)")
        let lines = [
            "BEGIN:VCARD", "VERSION:3.0", "UID:phone-\(counter)", "N:Card;Phone\(counter);;;", "FN:\(name)",
            "TEL;TYPE=CELL:\(number.text)", Self.revision(), "END:VCARD",
        ]
        _ = try phone.createCard(named: "phone-\(counter).vcf", data: CardLines.data(lines))
        model.edit(at: .server) { $0.people[name] = ModelPerson(phones: [number.digits]) }
        model.personOwner[name] = .phone
        model.phoneOwner[number.digits] = (name, .phone)
    }

    /// Sets the note (the phone's own property) of someone whose note every place agrees on.
    private mutating func phoneSetsNote() throws -> Bool {
        let candidates = alivePeople(at: .server).filter { model.settled($0, { $0.properties["note"] }) != nil }
        guard let name = pick(candidates) else { return false }
        let value = "note-\(counter)"
        note("phone", "set NOTE of \(name) to \(value)")
        try phoneRewrites(name) { lines in
            lines.removeAll { CardLines.name(of: $0) == "NOTE" }
            lines.insert("NOTE:\(value)", at: lines.lastIndex(of: "END:VCARD") ?? lines.endIndex)
        }
        model.edit(at: .server) { $0.people[name]?.properties["note"] = value }
        return true
    }

    private mutating func phoneAddsNumber() throws -> Bool {
        guard let name = pick(alivePeople(at: .server)) else { return false }
        let number = newPhone(for: .phone)
        note("phone", "add TEL +\(number.digits) to \(name)")
        try phoneRewrites(name) { lines in
            lines.insert("TEL;TYPE=CELL:\(number.text)", at: lines.lastIndex(of: "END:VCARD") ?? lines.endIndex)
        }
        recordAddedPhone(number.digits, to: name, by: .phone, at: .server)
        return true
    }

    private mutating func phoneRemovesNumber() throws -> Bool {
        guard let (digits, name) = pickRemovablePhone(of: .phone) else { return false }
        note("phone", "remove TEL +\(digits) from \(name)")
        try phoneRewrites(name) { lines in
            lines.removeAll { CardLines.name(of: $0) == "TEL" && CardLines.digits(CardLines.value(of: $0)) == digits }
        }
        recordRemovedPhone(digits, from: name, at: .server)
        return true
    }

    /// Removes a card the phone added (`DELETE` with `If-Match`), once every place holds the
    /// same version of it.
    private mutating func phoneRemovesCard() throws -> Bool {
        let own = alivePeople(at: .server).filter { model.personOwner[$0] == .phone && model.mayRemove($0) }
        guard let name = pick(own) else { return false }
        note("phone", "delete card \(name)")
        let card = try phoneCard(named: name)
        try phone.deleteCard(at: card.href, etag: card.etag)
        recordRemovedPerson(name, at: .server)
        return true
    }

    /// Reads a card, changes its lines and writes it back with `If-Match`.
    private func phoneRewrites(_ name: String, _ change: (inout [String]) -> Void) throws {
        let card = try phoneCard(named: name)
        var lines = CardLines.lines(card.data)
        change(&lines)
        // As phones do, the card says when it was changed.
        lines.removeAll { CardLines.name(of: $0) == "REV" }
        lines.insert(Self.revision(), at: lines.lastIndex(of: "END:VCARD") ?? lines.endIndex)
        _ = try phone.updateCard(at: card.href, data: CardLines.data(lines), etag: card.etag)
    }

    /// A `REV` line for now, in the basic form phones write (`REV:20261126T134500Z`).
    private static func revision() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date())
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "REV:\(parts.year ?? 2026)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }

    private func phoneCard(named name: String) throws -> RemoteCard {
        try #require(try serverCards().first { CardLines.lines($0.data).contains("FN:\(name)") }, "the server has no card \(name)")
    }

    private func serverCards() throws -> [RemoteCard] {
        let hrefs = try phone.listCards().map(\.href)
        return hrefs.isEmpty ? [] : try phone.fetchCards(hrefs)
    }

    // MARK: Syncing, pulling and pushing

    /// `contacts sync` on a computer, between two commits.
    private mutating func sync(_ computer: Computer) throws {
        try commit(computer, "edits")
        note(computer.rawValue, "sync")
        let result = try contacts(["sync"], store: folder(computer))
        journal[journal.count - 1] += ": " + result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if result.status != 0 || !result.stderr.isEmpty {
            failures.append("every sync exits 0 and reports nothing: \(computer.rawValue)'s sync exited \(result.status)\n\(result.stderr)")
        }
        try commit(computer, "sync")
        for conflict in model.sync(computer) {
            failures.append("the model's sync of \(computer.rawValue) has a conflict, a bug of this test: \(conflict)")
        }
        try check(computer.place)
        try check(.server)
    }

    /// `git pull --no-rebase` from the origin, then `git push`, after committing everything.
    private mutating func pullAndPush(_ computer: Computer) throws {
        try commit(computer, "edits")
        note(computer.rawValue, "pull and push")
        let clone = folder(computer)
        let pulled = try git.git(["pull", "--quiet", "--no-rebase", "--no-edit"], in: clone, allowFailure: true)
        guard pulled.status == 0 else {
            let conflicted = try git.git(["diff", "--name-only", "--diff-filter=U"], in: clone, allowFailure: true).lines
            let contents = try conflicted.prefix(2).map { path in
                "\(path):\n" + (try String(contentsOf: clone.appending(path: path), encoding: .utf8))
            }
            failures.append(
                "every pull merges cleanly: \(computer.rawValue)'s pull conflicted in \(conflicted.joined(separator: ", "))\n"
                    + "\(pulled)\n" + contents.joined(separator: "\n"))
            return
        }
        try git.git(["push", "--quiet"], in: clone)
        for conflict in model.pullAndPush(computer) {
            failures.append("the model's merge in \(computer.rawValue) has a conflict, a bug of this test: \(conflict)")
        }
        try check(computer.place)
    }

    /// Commits everything the computer's clone changed, if anything.
    private func commit(_ computer: Computer, _ what: String) throws {
        let clone = folder(computer)
        try git.git(["add", "-A"], in: clone)
        guard try git.git(["diff", "--cached", "--quiet"], in: clone, allowFailure: true).status != 0 else { return }
        try git.git(["commit", "--quiet", "-m", "\(computer.rawValue): \(what)"], in: clone)
    }

    // MARK: Checking

    /// Compares what a place holds with what the model says it holds (by default, its own
    /// version in the model).
    private mutating func check(_ place: Place, against expected: ModelBook? = nil) throws {
        let observed = place == .server ? try serverBook() : try storeBook(of: place == .a ? .a : .b)
        failures += observed.differences(from: expected ?? model[place], model: model, at: place.rawValue)
    }

    /// After the settle: every place holds every edit, the clones are the same bytes and
    /// committed, and `contacts doctor` finds nothing.
    private mutating func checkEnd() throws {
        note("end", "both clones equal and clean, doctor silent, every edit everywhere")
        for place in model.unsettledPlaces {
            failures.append("the model did not settle, a bug of this test: \(place.rawValue) differs from the edits made")
        }
        let (a, b) = (try cloneFiles(of: folder(.a)), try cloneFiles(of: folder(.b)))
        for path in Set(a.keys).union(b.keys).sorted() where a[path] != b[path] {
            let how = a[path] == nil ? "only B has it" : b[path] == nil ? "only A has it" : "its bytes differ"
            failures.append("clones byte-equal: \(path): \(how)")
        }
        for computer in Computer.allCases {
            let status = try git.git(["status", "--porcelain"], in: folder(computer)).stdout
            if !status.isEmpty { failures.append("clean work tree: \(computer.rawValue) has uncommitted changes:\n\(status)") }
            try checkDoctor(computer)
            try check(computer.place, against: model.expected)
        }
        try check(.server, against: model.expected)
    }

    /// `contacts doctor` finds nothing and exits 0. (Record IDs both clones handed out are no
    /// finding: the store settles them alike on every clone when it reads them.)
    private mutating func checkDoctor(_ computer: Computer) throws {
        let result = try contacts(["doctor", "--json"], store: folder(computer))
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let findings = object["findings"] as? [[String: Any]]
        else {
            failures.append("doctor silent: \(computer.rawValue)'s doctor printed no findings: \(result)")
            return
        }
        for problem in findings {
            let text = ["kind", "path", "message"].map { problem[$0].map { "\($0)" } ?? "" }.joined(separator: " ")
            failures.append("doctor silent: \(computer.rawValue): \(text)")
        }
        if result.status != 0 { failures.append("doctor silent: \(computer.rawValue)'s doctor exited \(result.status)") }
    }

    // MARK: Reading the places

    private func listing(of computer: Computer) throws -> StoreListing {
        try StoreListing(try succeed(["list", "--json"], on: computer).stdout)
    }

    /// A clone as `list --json`, `group list --json` and `export` show it.
    private func storeBook(of computer: Computer) throws -> ObservedBook {
        let listing = try listing(of: computer)
        var book = ObservedBook()
        book.repeated = listing.repeatedNames.map { "two people named \($0)" }
        let groups = try #require(
            JSONSerialization.jsonObject(with: Data(try succeed(["group", "list", "--json"], on: computer).stdout.utf8)) as? [[String: Any]])
        for name in groups.compactMap({ $0["name"] as? String }).sorted() {
            if book.groups[name] != nil { book.repeated.append("two groups named \(name)") }
            book.groups[name] = []
        }
        for (name, record) in listing.records {
            let phones = (record["phones"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }.map(CardLines.digits)
            let properties = TwoPathModel.properties.reduce(into: [String: String]()) { $0[$1] = record[$1] as? String }
            book.people[name] = ObservedBook.Person(properties: properties, phones: phones)
            for group in record["groups"] as? [String] ?? [] { book.groups[group, default: []].insert(name) }
        }
        book.noteRepeatedUIDs(of: CardLines.cards(try succeed(["export"], on: computer).stdout))
        return book
    }

    /// The server as the phone reads it.
    private func serverBook() throws -> ObservedBook {
        let cards = try serverCards().map { CardLines.lines($0.data) }
        var book = ObservedBook()
        var namesByUID: [String: String] = [:]
        for lines in cards where !CardLines.isGroup(lines) {
            let name = CardLines.first("FN", in: lines) ?? "?"
            if let uid = CardLines.first("UID", in: lines) { namesByUID[uid] = name }
            if book.people[name] != nil { book.repeated.append("two cards named \(name)") }
            var person = ObservedBook.Person()
            for line in lines {
                let value = CardLines.value(of: line)
                switch CardLines.name(of: line) {
                case "TITLE": person.properties["jobTitle"] = value
                case "NICKNAME": person.properties["nickname"] = value
                case "NOTE": person.properties["note"] = value
                case "TEL": person.phones.append(CardLines.digits(value))
                default: break
                }
            }
            book.people[name] = person
        }
        for lines in cards where CardLines.isGroup(lines) {
            let name = CardLines.first("FN", in: lines) ?? "?"
            if book.groups[name] != nil { book.repeated.append("two group cards named \(name)") }
            let members = lines.filter { ["MEMBER", "X-ADDRESSBOOKSERVER-MEMBER"].contains(CardLines.name(of: $0)) }.map { line in
                let uid = CardLines.value(of: line).replacingOccurrences(of: "urn:uuid:", with: "")
                return namesByUID[uid] ?? "the missing card \(uid)"
            }
            book.groups[name] = Set(members)
        }
        book.noteRepeatedUIDs(of: cards)
        return book
    }

    // MARK: Running `contacts`

    /// Runs `contacts` on the store in `store`, with the server's password at hand.
    private func contacts(_ arguments: [String], store: URL) throws -> CLIResult {
        var environment = try git.environment
        environment["CONTACTS_DIR"] = store.path(percentEncoded: false)
        environment["CONTACTS_REMOTE_PASSWORD"] = server.password
        return try sandbox.run(arguments, environment: environment)
    }

    @discardableResult
    private func succeed(_ arguments: [String], store: URL) throws -> CLIResult {
        let result = try contacts(arguments, store: store)
        try #require(result.status == 0, "contacts \(arguments.joined(separator: " ")) in \(store.lastPathComponent) failed: \(result)")
        return result
    }

    @discardableResult
    private func succeed(_ arguments: [String], on computer: Computer) throws -> CLIResult { try succeed(arguments, store: folder(computer)) }
}

// MARK: - What the places hold

/// What `contacts list --json` shows of a clone: each person's record by name.
private struct StoreListing {
    var records: [String: [String: Any]] = [:]
    var repeatedNames: [String] = []

    init(_ listing: String) throws {
        let records = try #require(JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]])
        for record in records {
            let name = try #require(record["compositeName"] as? String)
            if self.records[name] != nil { repeatedNames.append(name) }
            self.records[name] = record
        }
    }

    /// The record ID the clone shows for the person named `name`.
    func id(_ name: String) throws -> String {
        String(try #require(records[name]?["id"] as? Int, "no person \(name) in the listing"))
    }

    /// The person's phone entries, as `contacts set` takes them back.
    func phones(_ name: String) throws -> [[String: Any]] {
        try #require(records[name], "no person \(name) in the listing")["phones"] as? [[String: Any]] ?? []
    }
}

/// What a clone or the server really holds, in the model's terms.
private struct ObservedBook {
    struct Person {
        var properties: [String: String] = [:]
        /// Digits, in order, repeats kept.
        var phones: [String] = []
    }

    var people: [String: Person] = [:]
    var groups: [String: Set<String>] = [:]
    /// Contacts found more than once: one UID on two records, two people of one name.
    var repeated: [String] = []

    /// Notes every UID that more than one of these cards (each as its lines) carries.
    mutating func noteRepeatedUIDs(of cards: [[String]]) {
        let byUID = Dictionary(grouping: cards) { CardLines.first("UID", in: $0) ?? "none" }
        for (uid, cards) in byUID.sorted(by: { $0.key < $1.key }) where cards.count > 1 {
            let names = cards.map { CardLines.first("FN", in: $0) ?? "?" }
            repeated.append("UID \(uid) on \(cards.count) records (\(names.joined(separator: ", ")))")
        }
    }

    /// Each way this differs from what the model expects, named by the invariant it breaks.
    func differences(from expected: ModelBook, model: TwoPathModel, at place: String) -> [String] {
        var found = repeated.map { "each UID once: \(place) has \($0)" }
        for name in Set(expected.people.keys).union(people.keys).sorted() {
            switch (expected.people[name], people[name]) {
            case (nil, _?) where model.removedPeople.contains(name):
                found.append("removals stay removed: \(place) has \(name), whom \(model.personOwner[name]?.rawValue ?? "?") removed")
            case (nil, _?):
                found.append("every value everywhere: \(place) has \(name), whom the model does not expect there")
            case (_?, nil):
                found.append("nothing lost: \(place) lacks \(name)")
            case (let want?, let got?):
                found += differences(of: name, got, want, model: model, at: place)
            case (nil, nil):
                break
            }
        }
        for group in Set(expected.groups.keys).union(groups.keys).sorted() {
            guard let want = expected.groups[group], let got = groups[group] else {
                found.append("every value everywhere: \(place) \(groups[group] == nil ? "lacks" : "has") the group \(group)")
                continue
            }
            for member in got.subtracting(want).sorted() {
                let removed = model.removedMembers.contains([group, member]) || model.removedPeople.contains(member)
                found.append(
                    (removed ? "removals stay removed: " : "every value everywhere: ") + "\(place), group \(group) has \(member)")
            }
            found += want.subtracting(got).sorted().map { "nothing lost: \(place), group \(group) lacks \($0)" }
        }
        return found
    }

    private func differences(of name: String, _ got: Person, _ want: ModelPerson, model: TwoPathModel, at place: String) -> [String] {
        var found = TwoPathModel.properties.filter { got.properties[$0] != want.properties[$0] }.map { key in
            "every value everywhere: \(place), \(name): \(key) is \(got.properties[key] ?? "missing"), expected \(want.properties[key] ?? "none")"
        }
        for (digits, copies) in Dictionary(grouping: got.phones, by: { $0 }).sorted(by: { $0.key < $1.key }) where copies.count > 1 {
            found.append("each phone number once: \(place), \(name) has +\(digits) \(copies.count) times")
        }
        let phones = Set(got.phones)
        for digits in phones.subtracting(want.phones).sorted() {
            found.append(
                (model.removedPhones.contains(digits) ? "removals stay removed: " : "every value everywhere: ")
                    + "\(place), \(name) has +\(digits)")
        }
        return found + want.phones.subtracting(phones).sorted().map { "nothing lost: \(place), \(name) lacks +\($0)" }
    }
}
