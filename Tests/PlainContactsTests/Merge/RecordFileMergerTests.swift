import DAVTestSupport
import Foundation
import PlainContactsSystem
import Testing
@testable import PlainContacts

@Suite struct RecordFileMergerTests {
    private let path = "people/katie-bell-9dw42k.json"

    private func time(_ text: String) throws -> PropertyValue {
        .timestamp(try #require(Timestamp.parse(text)))
    }

    /// Katie Bell as saved in January, with one mobile phone.
    private func katie() throws -> PersonState {
        var state = PersonState()
        state.values[.firstName] = .string("Katie")
        state.values[.lastName] = .string("Bell")
        state.values[.phones] = .multiString(MultiValue([(value: "555-0100", label: .mobile)]))
        state.nextValueIdentifier = 1
        state.values[.creationDate] = try time("2026-01-01T00:00:00Z")
        state.values[.modificationDate] = try time("2026-01-01T00:00:00Z")
        return state
    }

    private func file(_ state: PersonState, id: Int32 = 1) -> Data {
        PersonRecordCoder.encode(id: RecordID(id), state: state)
    }

    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// The text with one side of every conflict kept and the markers removed.
    private func resolve(_ text: String, keepingOurs: Bool) -> String {
        var result = ""
        var section = 0  // 0 outside, 1 ours, 2 theirs
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            switch line {
            case "<<<<<<< ours": section = 1
            case "=======": section = 2
            case ">>>>>>> theirs": section = 0
            default:
                if section == 0 || (section == 1) == keepingOurs { result += line + "\n" }
            }
        }
        return result
    }

    @Test func editsOfDifferentPropertiesOfOnePersonMergeCleanly() throws {
        let base = try katie()
        var ours = base
        ours.values[.jobTitle] = .string("Pilot")
        ours.values[.modificationDate] = try time("2026-02-01T00:00:00Z")
        var theirs = base
        theirs.values[.note] = .string("Met at the airport")
        theirs.values[.modificationDate] = try time("2026-03-01T00:00:00Z")

        let result = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path)

        #expect(result.conflicts.isEmpty)
        var expected = ours
        expected.values[.note] = .string("Met at the airport")
        expected.values[.modificationDate] = try time("2026-03-01T00:00:00Z")
        #expect(result.merged == file(expected))
    }

    @Test func multiValueEntriesAddedOnBothSidesBothSurviveWithDistinctIdentifiers() throws {
        let base = try katie()
        var ours = base
        var oursPhones = MultiValue<String>(entries: try #require(base.phonesEntries), nextIdentifier: 1)
        oursPhones.add("555-0200", label: .work)
        ours.values[.phones] = .multiString(oursPhones)
        ours.nextValueIdentifier = 2
        var theirs = base
        var theirPhones = MultiValue<String>(entries: try #require(base.phonesEntries), nextIdentifier: 1)
        theirPhones.add("555-0300", label: .home)
        theirs.values[.phones] = .multiString(theirPhones)
        theirs.nextValueIdentifier = 2

        let result = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path)

        #expect(result.conflicts.isEmpty)
        let merged = try PersonRecordCoder.decode(result.merged, path: path).state
        guard case .multiString(let phones)? = merged.values[.phones] else {
            Issue.record("no phones")
            return
        }
        #expect(phones.values == ["555-0100", "555-0300", "555-0200"])
        #expect(Set(phones.entries.map(\.identifier)).count == 3)
        #expect(merged.nextValueIdentifier == 3)
    }

    @Test func entriesAddedOnBothSidesWithNoIdentifierLeftConflict() throws {
        var base = try katie()
        base.values[.phones] = nil
        base.nextValueIdentifier = 2147483646
        var ours = base
        ours.values[.phones] = .multiString(MultiValue(
            entries: [.init(identifier: MultiValueIdentifier(rawValue: 2147483646), label: nil, value: "555-0111")], nextIdentifier: 0))
        var theirs = base
        theirs.values[.phones] = .multiString(MultiValue(
            entries: [.init(identifier: MultiValueIdentifier(rawValue: 2147483646), label: nil, value: "555-0222")], nextIdentifier: 0))

        let result = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path)

        #expect(result.conflicts == ["phones"])
    }

    /// The bytes of a person file after `change`, made by a book on a store holding `data`.
    private func edited(_ data: Data, in store: TemporaryStore, _ change: (Person) throws -> Void) throws -> Data {
        let name = try #require(try store.files(in: "people").first)
        try data.write(to: store.path("people/\(name)"), options: .atomic)
        let book = try store.openBook()
        let person = try #require(book.allPeople().first)
        try change(person)
        try book.save()
        return try Data(contentsOf: store.path("people/\(name)"))
    }

    @Test func anIdentifierPulledByAnotherCloneKeepsItsNumberThroughMerges() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        let base = try Data(contentsOf: store.path("people/\(try #require(try store.files(in: "people").first))"))
        func adding(_ phone: String) -> (Person) -> Void {
            { person in
                var phones = person.phones
                phones.add(phone)
                person.phones = phones
            }
        }

        let a1 = try edited(base, in: store, adding("111"))  // A adds 111; D pulls A
        let b1 = try edited(base, in: store, adding("222"))  // B adds 222
        let a2 = try RecordFileMerger.merge(base: base, ours: a1, theirs: b1, path: path)  // A pulls B
        #expect(a2.conflicts.isEmpty)
        let d2 = try edited(a1, in: store) { $0.phones = MultiValue() }  // D removes 111
        let d3 = try RecordFileMerger.merge(base: a1, ours: d2, theirs: a2.merged, path: path)  // D pulls A

        #expect(d3.conflicts.isEmpty)
        let merged = try PersonRecordCoder.decode(d3.merged, path: path).state
        #expect(merged.phonesEntries?.map(\.value) == ["222"])
        let fromB = try PersonRecordCoder.decode(b1, path: path).state
        #expect(merged.phonesEntries?.map(\.identifier) == fromB.phonesEntries?.map(\.identifier))
    }

    @Test func aPropertyChangedDifferentlyIsMarkedWithBothSides() throws {
        let base = try katie()
        var ours = base
        ours.values[.jobTitle] = .string("Pilot")
        var theirs = base
        theirs.values[.jobTitle] = .string("Sailor")

        let result = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path)

        #expect(result.conflicts == ["jobTitle"])
        let merged = text(result.merged)
        #expect(merged.contains("""
            <<<<<<< ours
              "jobTitle": "Pilot",
            =======
              "jobTitle": "Sailor",
            >>>>>>> theirs

            """))
        #expect {
            _ = try JSONParser.parse(result.merged, path: path)
        } throws: { ($0 as? ContactsError)?.code == .conflictMarkers }
        #expect(resolve(merged, keepingOurs: true) == text(file(ours)))
        #expect(resolve(merged, keepingOurs: false) == text(file(theirs)))
    }

    @Test func aConflictAtTheEndKeepsCommasRightForEachSide() throws {
        var base = try katie()
        base.values[.phones] = nil
        base.nextValueIdentifier = 0
        base.values[.note] = .string("first note")
        var ours = base
        ours.values[.note] = .string("edited note")
        var theirs = base
        theirs.values[.note] = nil  // "note" is the last key, absent on their side

        let result = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path)

        #expect(result.conflicts == ["note"])
        let keptOurs = resolve(text(result.merged), keepingOurs: true)
        let keptTheirs = resolve(text(result.merged), keepingOurs: false)
        #expect(keptOurs == text(file(ours)))
        #expect(keptTheirs == text(file(theirs)))
        #expect(throws: Never.self) { try JSONParser.parse(Data(keptTheirs.utf8), path: path) }
    }

    @Test func theModificationDateNeverConflicts() throws {
        let base = try katie()
        var ours = base
        ours.values[.jobTitle] = .string("Pilot")
        ours.values[.modificationDate] = try time("2026-05-01T00:00:00Z")
        var theirs = base
        theirs.values[.note] = .string("Met at the airport")
        theirs.values[.modificationDate] = try time("2026-04-01T00:00:00Z")

        let result = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path)

        #expect(result.conflicts.isEmpty)
        #expect(try PersonRecordCoder.decode(result.merged, path: path).state.values[.modificationDate] == time("2026-05-01T00:00:00Z"))
    }

    /// One change that reached both sides by two paths (Git and an account's card), each side
    /// saving it at its own time and numbering its entries its own way.
    @Test func theSameChangeOnBothSidesMergesIntoTheVersionMadeFirstWhicheverSideMerges() throws {
        let base = try katie()
        var first = base
        first.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "555-0100"),
            .init(identifier: MultiValueIdentifier(rawValue: 63787), label: .work, value: "555-0200"),
        ], nextIdentifier: 63788))
        first.nextValueIdentifier = 63788
        first.values[.modificationDate] = try time("2026-04-01T00:00:00Z")
        var second = base
        second.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "555-0100"),
            .init(identifier: MultiValueIdentifier(rawValue: 1), label: .work, value: "555-0200"),
        ], nextIdentifier: 2))
        second.nextValueIdentifier = 2
        second.values[.modificationDate] = try time("2026-05-01T00:00:00Z")

        let here = try RecordFileMerger.merge(base: file(base), ours: file(second), theirs: file(first), path: path)
        let there = try RecordFileMerger.merge(base: file(base), ours: file(first), theirs: file(second), path: path)

        #expect(here.conflicts.isEmpty && there.conflicts.isEmpty)
        #expect(here.merged == file(first))
        #expect(there.merged == file(first))
    }

    /// A person made and edited within one second, and another clone's copy made from its
    /// card (dated by the card's REV, numbered afresh, under a settled ID where the carried one
    /// was taken): the original is the version kept, whichever side merges.
    @Test func theOriginalIsKeptOverACopyFromItsCardMadeWithinTheSameSecond() throws {
        var original = try katie()
        original.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 41941), label: nil, value: "+1 555 10002")
        ], nextIdentifier: 41942))
        original.nextValueIdentifier = 41942
        var copy = original
        copy.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: nil, value: "+1 555 10002")
        ], nextIdentifier: 1))
        copy.nextValueIdentifier = 1

        for copyID in [Int32(3), 1_039_723_275] {
            for (a, b) in [(file(original, id: 3), file(copy, id: copyID)), (file(copy, id: copyID), file(original, id: 3))] {
                let result = try RecordFileMerger.merge(base: nil, ours: a, theirs: b, path: path)
                #expect(result.conflicts.isEmpty)
                #expect(result.merged == file(original, id: 3))
            }
        }
    }

    @Test func aValueBothSidesAddedIsOneEntryUnderTheSmallerIdentifier() throws {
        let base = try katie()
        var ours = base
        ours.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "555-0100"),
            .init(identifier: MultiValueIdentifier(rawValue: 63787), label: .work, value: "+1 (555) 0200"),
        ], nextIdentifier: 63788))
        ours.values[.jobTitle] = .string("Pilot")
        var theirs = base
        theirs.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "555-0100"),
            .init(identifier: MultiValueIdentifier(rawValue: 70000), label: .work, value: "+15550200"),
        ], nextIdentifier: 70001))
        theirs.values[.note] = .string("Met at the airport")

        for (a, b) in [(ours, theirs), (theirs, ours)] {
            let result = try RecordFileMerger.merge(base: file(base), ours: file(a), theirs: file(b), path: path)
            #expect(result.conflicts.isEmpty)
            let merged = try PersonRecordCoder.decode(result.merged, path: path).state
            #expect(merged.phonesEntries?.map(\.value) == ["555-0100", "+1 (555) 0200"])
            #expect(merged.phonesEntries?.map(\.identifier.rawValue) == [0, 63787])
        }
    }

    /// Clone A took two numbers from the account's card and numbered them its own way; clone B,
    /// which added them, removes one. B's pull of A's version must keep the removal.
    @Test func aValueOneSideNumberedAnewIsStillTheBasesEntryForARemoval() throws {
        var base = try katie()
        base.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 40000), label: nil, value: "+155520001"),
            .init(identifier: MultiValueIdentifier(rawValue: 40001), label: nil, value: "+155520010"),
        ], nextIdentifier: 40002))
        var ours = base
        ours.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 40001), label: nil, value: "+155520010")
        ], nextIdentifier: 40002))
        var theirs = base
        theirs.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 1), label: nil, value: "+155520001"),
            .init(identifier: MultiValueIdentifier(rawValue: 2), label: nil, value: "+155520010"),
        ], nextIdentifier: 3))
        theirs.values[.note] = .string("note")

        let result = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path)

        #expect(result.conflicts.isEmpty)
        let merged = try PersonRecordCoder.decode(result.merged, path: path).state
        #expect(merged.phonesEntries?.map(\.value) == ["+155520010"])
        #expect(merged.values[.note] == .string("note"))
    }

    /// Two clones numbered the same two values crosswise (30009 is 2 and 30016 is 3 on one,
    /// 3 and 4 on the other); one removes 30009, the other adds a number.
    @Test func valuesNumberedCrosswiseAreStillTheBasesEntries() throws {
        func phones(_ entries: [(Int32, String)]) -> PropertyValue {
            .multiString(MultiValue(entries: entries.map { .init(identifier: MultiValueIdentifier(rawValue: $0.0), label: .mobile, value: $0.1) }, nextIdentifier: 0))
        }
        var base = try katie()
        base.values[.phones] = phones([(0, "10001"), (3, "30009"), (4, "30016")])
        var ours = base
        ours.values[.phones] = phones([(0, "10001"), (4, "30016")])
        var theirs = base
        theirs.values[.phones] = phones([(0, "10001"), (2, "30009"), (3, "30016"), (45093, "20039")])

        for (a, b) in [(ours, theirs), (theirs, ours)] {
            let result = try RecordFileMerger.merge(base: file(base), ours: file(a), theirs: file(b), path: path)
            #expect(result.conflicts.isEmpty)
            let merged = try PersonRecordCoder.decode(result.merged, path: path).state
            #expect(Set(merged.phonesEntries?.map(\.value) ?? []) == ["10001", "30016", "20039"])
            #expect(merged.phonesEntries?.count == 3)
        }
    }

    /// Both sides added numbers: whichever side merges, the entries come out in one order, so
    /// that two clones and the account do not pass the record back and forth.
    @Test func entriesBothSidesAddedComeOutInOneOrderWhicheverSideMerges() throws {
        func phones(_ entries: [(Int32, String)]) -> PropertyValue {
            .multiString(MultiValue(entries: entries.map { .init(identifier: MultiValueIdentifier(rawValue: $0.0), label: nil, value: $0.1) }, nextIdentifier: 0))
        }
        var base = try katie()
        base.values[.phones] = phones([(0, "10007"), (5, "10008")])
        var ours = base
        ours.values[.phones] = phones([(0, "10007"), (37970, "20030"), (5, "10008")])
        var theirs = base
        theirs.values[.phones] = phones([(0, "10007"), (5, "10008"), (37686, "30031"), (37685, "10032")])

        let here = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path)
        let there = try RecordFileMerger.merge(base: file(base), ours: file(theirs), theirs: file(ours), path: path)

        let a = try PersonRecordCoder.decode(here.merged, path: path).state.phonesEntries?.map(\.value)
        let b = try PersonRecordCoder.decode(there.merged, path: path).state.phonesEntries?.map(\.value)
        #expect(a == b)
        #expect(a == ["10007", "20030", "10008", "30031", "10032"])
        // Numbered otherwise (as on another clone), the same values come out in the same order.
        var renumbered = theirs
        renumbered.values[.phones] = phones([(0, "10007"), (5, "10008"), (2, "30031"), (9, "10032")])
        let elsewhere = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(renumbered), path: path)
        #expect(try PersonRecordCoder.decode(elsewhere.merged, path: path).state.phonesEntries?.map(\.value) == a)
    }

    /// The phone replaced a number. Clone B took the new number as an edit of the old entry,
    /// clone A (which had added another number meanwhile) as an entry of its own.
    @Test func aNumberOneSideTookAsAnEditAndTheOtherAsAnAdditionIsOneEntry() throws {
        var base = try katie()
        base.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "+1 555 30008")
        ], nextIdentifier: 1))
        var ours = base
        ours.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "+1 555 30022"),
            .init(identifier: MultiValueIdentifier(rawValue: 2), label: nil, value: "+1 555 10030"),
        ], nextIdentifier: 3))
        var theirs = base
        theirs.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "+1 555 30008"),
            .init(identifier: MultiValueIdentifier(rawValue: 42390), label: .mobile, value: "+1 555 30022"),
            .init(identifier: MultiValueIdentifier(rawValue: 42389), label: nil, value: "+1 555 10030"),
        ], nextIdentifier: 42391))

        for (a, b) in [(ours, theirs), (theirs, ours)] {
            let result = try RecordFileMerger.merge(base: file(base), ours: file(a), theirs: file(b), path: path)
            #expect(result.conflicts.isEmpty)
            let merged = try PersonRecordCoder.decode(result.merged, path: path).state
            #expect(Set(merged.phonesEntries?.map(\.value) ?? []) == ["+1 555 30022", "+1 555 10030"])
            #expect(merged.phonesEntries?.count == 2)
        }
    }

    /// The phone replaced a number; one clone took that as an edit of the entry, the other as a
    /// removal (and the new number reached it later).
    @Test func anEntryRemovedOnOneSideAndChangedOnTheOtherKeepsTheNewValue() throws {
        var base = try katie()
        base.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "+1 555 30002"),
            .init(identifier: MultiValueIdentifier(rawValue: 1), label: .mobile, value: "+1 555 30003"),
        ], nextIdentifier: 2))
        var ours = base
        ours.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 1), label: .mobile, value: "+1 555 30003"),
            .init(identifier: MultiValueIdentifier(rawValue: 0), label: .mobile, value: "+1 555 30036"),
        ], nextIdentifier: 2))
        var theirs = base
        theirs.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 1), label: .mobile, value: "+1 555 30003"),
            .init(identifier: MultiValueIdentifier(rawValue: 29615), label: nil, value: "+1 555 10022"),
        ], nextIdentifier: 29616))

        for (a, b) in [(ours, theirs), (theirs, ours)] {
            let result = try RecordFileMerger.merge(base: file(base), ours: file(a), theirs: file(b), path: path)
            #expect(result.conflicts.isEmpty)
            let merged = try PersonRecordCoder.decode(result.merged, path: path).state
            #expect(Set(merged.phonesEntries?.map(\.value) ?? []) == ["+1 555 30003", "+1 555 30036", "+1 555 10022"])
        }
    }

    @Test func aRecordBothSidesAddedFromOneCardHasOneEntryPerValueAndTheFirstID() throws {
        var ours = try katie()
        ours.values[.phones] = .multiString(MultiValue(entries: [
            .init(identifier: MultiValueIdentifier(rawValue: 4), label: .mobile, value: "555-0100")
        ], nextIdentifier: 5))
        ours.values[.jobTitle] = .string("Pilot")
        ours.values[.creationDate] = try time("2026-02-01T00:00:00Z")
        let theirs = try katie()

        for (a, aID, b, bID) in [(ours, Int32(7), theirs, Int32(3)), (theirs, 3, ours, 7)] {
            let result = try RecordFileMerger.merge(base: nil, ours: file(a, id: aID), theirs: file(b, id: bID), path: path)
            #expect(result.conflicts.isEmpty)
            let merged = try PersonRecordCoder.decode(result.merged, path: path)
            #expect(merged.state.phonesEntries?.map(\.value) == ["555-0100"])
            #expect(merged.state.values[.jobTitle] == .string("Pilot"))
            #expect(merged.id == RecordID(3))
        }
    }

    @Test func bothSidesAddingTheFileMergeAgainstAnEmptyRecord() throws {
        let person = try katie()
        var ours = person
        ours.values[.nickname] = .string("Kat")
        ours.values[.jobTitle] = .string("Pilot")
        var theirs = person
        theirs.values[.jobTitle] = .string("Sailor")
        theirs.values[.department] = .string("Flight")

        let result = try RecordFileMerger.merge(base: nil, ours: file(ours), theirs: file(theirs), path: path)

        #expect(result.conflicts == ["jobTitle"])
        var expectedOurs = ours
        expectedOurs.values[.department] = .string("Flight")
        #expect(resolve(text(result.merged), keepingOurs: true) == text(file(expectedOurs)))
        let same = try RecordFileMerger.merge(base: nil, ours: file(person), theirs: file(person), path: path)
        #expect(same.conflicts.isEmpty)
        #expect(same.merged == file(person))
    }

    @Test func theRecordIDIsTheirsOnlyWhenOnlyTheyChangedIt() throws {
        let base = try katie()
        let renumbered = try RecordFileMerger.merge(base: file(base, id: 4), ours: file(base, id: 4), theirs: file(base, id: 9), path: path)
        #expect(try PersonRecordCoder.decode(renumbered.merged, path: path).id == RecordID(9))
        let both = try RecordFileMerger.merge(base: file(base, id: 4), ours: file(base, id: 7), theirs: file(base, id: 9), path: path)
        #expect(try PersonRecordCoder.decode(both.merged, path: path).id == RecordID(7))
    }

    @Test func groupNamesAndUnknownKeysMergeKeyByKey() throws {
        var base = GroupState()
        base.name = "Friends"
        base.unknownFields = ["color": .string("blue")]
        var ours = base
        ours.unknownFields["icon"] = .string("star")
        var theirs = base
        theirs.name = "Close friends"
        let groupPath = "groups/friends-q97zpt.json"
        func encode(_ state: GroupState) -> Data { GroupRecordCoder.encode(id: RecordID(3), state: state) }

        let clean = try RecordFileMerger.merge(base: encode(base), ours: encode(ours), theirs: encode(theirs), path: groupPath)
        #expect(clean.conflicts.isEmpty)
        let merged = try GroupRecordCoder.decode(clean.merged, path: groupPath).state
        #expect(merged.name == "Close friends")
        #expect(merged.unknownFields == ["color": .string("blue"), "icon": .string("star")])

        var clash = base
        clash.name = "Pals"
        clash.unknownFields["color"] = .string("red")
        var other = base
        other.unknownFields["color"] = .string("green")
        other.name = "Buddies"
        let conflicted = try RecordFileMerger.merge(base: encode(base), ours: encode(clash), theirs: encode(other), path: groupPath)
        #expect(conflicted.conflicts == ["color", "name"])
        #expect(resolve(text(conflicted.merged), keepingOurs: true) == text(encode(clash)))
    }

    @Test func oneGroupBothSidesAddedFromOneCardMergesIntoTheVersionMadeFirst() throws {
        let path = "groups/friends-q97zpt.json"
        func version(_ created: String, uid: String?) throws -> Data {
            var state = GroupState()
            state.name = "Friends"
            state.creationDate = Timestamp.parse(created)
            state.modificationDate = state.creationDate
            if let uid { state.unknownFields["uid"] = .string(uid) }
            return GroupRecordCoder.encode(id: RecordID(1_500_000_000), state: state)
        }
        let first = try version("2026-01-01T00:00:00Z", uid: nil)
        let derived = VCardRecordFields.derivedUID(for: try #require(RecordKey(rawValue: "friends-q97zpt")))
        let second = try version("2026-02-01T00:00:00Z", uid: derived)

        for (a, b) in [(first, second), (second, first)] {
            let result = try RecordFileMerger.merge(base: nil, ours: a, theirs: b, path: path)
            #expect(result.conflicts.isEmpty)
            #expect(result.merged == first)
        }
    }

    @Test func membershipFilesMergeAsSetsWithoutConflicts() throws {
        let base = Data("ann-a\nbob-b\n".utf8)
        let ours = Data("ann-a\nbob-b\ncat-c\n".utf8)
        let theirs = Data("bob-b\ndan-d\n".utf8)
        let result = try RecordFileMerger.merge(base: base, ours: ours, theirs: theirs, path: "groups/friends-q97zpt.members")
        #expect(result.conflicts.isEmpty)
        #expect(text(result.merged) == "bob-b\ncat-c\ndan-d\n")
    }

    @Test func aMemberRemovedOnOneSideStaysRemoved() throws {
        let base = Data("ann-a\nbob-b\n".utf8)
        let result = try RecordFileMerger.merge(
            base: base, ours: Data("ann-a\n".utf8), theirs: Data("ann-a\nbob-b\ncat-c\n".utf8), path: "groups/friends-q97zpt.members")
        #expect(text(result.merged) == "ann-a\ncat-c\n")
    }

    @Test func aMembershipVersionWithALineThatIsNotAKeyCannotBeMerged() throws {
        let base = Data("ann-a\n".utf8)
        for damaged in ["ann-a\n{\n", "  \"id\": 1,\n", "ann-a\n<<<<<<< ours\n"] {
            for path in ["groups/friends-q97zpt.members", "/tmp/.merge_file_a1b2c3"] {
                #expect {
                    _ = try RecordFileMerger.merge(base: base, ours: Data(damaged.utf8), theirs: base, path: path)
                } throws: { [ContactsError.Code.malformedFile, .conflictMarkers].contains(($0 as? ContactsError)?.code) }
            }
        }
    }

    @Test func withoutAPathVersionsOfDifferentKindsCannotBeMerged() throws {
        let person = try file(katie())
        #expect {
            _ = try RecordFileMerger.merge(
                base: Data("ann-a\n".utf8), ours: Data("ann-a\nbob-b\n".utf8), theirs: person, path: "/tmp/.merge_file_a1b2c3")
        } throws: { ($0 as? ContactsError)?.code == .malformedFile }
        #expect {
            _ = try RecordFileMerger.merge(base: person, ours: Data("x".utf8) + person, theirs: person, path: "/tmp/.merge_file_a1b2c3")
        } throws: { ($0 as? ContactsError)?.code == .malformedFile }
    }

    @Test func withoutAPathEmptyMembershipVersionsMerge() throws {
        let result = try RecordFileMerger.merge(
            base: Data(), ours: Data(), theirs: Data("ann-a\n".utf8), path: "/tmp/.merge_file_a1b2c3")
        #expect(text(result.merged) == "ann-a\n")
    }

    @Test func manifestSettingsMergeOneByOne() throws {
        let base = Manifest()
        var ours = base
        ours.sortOrdering = .firstName
        var theirs = base
        theirs.unknownFields["autoCommit"] = .bool(true)
        let result = try RecordFileMerger.merge(base: base.data, ours: ours.data, theirs: theirs.data, path: "store.json")
        #expect(result.conflicts.isEmpty)
        let merged = try Manifest(data: result.merged, path: "store.json")
        #expect(merged.sortOrdering == .firstName)
        #expect(merged.unknownFields["autoCommit"] == .bool(true))

        var other = base
        other.unknownFields["autoCommit"] = .bool(false)
        var mine = base
        mine.unknownFields["autoCommit"] = .bool(true)
        let clash = try RecordFileMerger.merge(base: base.data, ours: mine.data, theirs: other.data, path: "store.json")
        #expect(clash.conflicts == ["autoCommit"])
    }

    @Test func aVersionWithConflictMarkersCannotBeMerged() throws {
        let base = try katie()
        var ours = base
        ours.values[.jobTitle] = .string("Pilot")
        var theirs = base
        theirs.values[.jobTitle] = .string("Sailor")
        let marked = try RecordFileMerger.merge(base: file(base), ours: file(ours), theirs: file(theirs), path: path).merged
        #expect {
            _ = try RecordFileMerger.merge(base: file(base), ours: marked, theirs: file(theirs), path: path)
        } throws: { ($0 as? ContactsError)?.code == .conflictMarkers }
    }

    @Test func gitsTemporaryCopiesAreRecognizedByTheirContents() throws {
        let base = try katie()
        var ours = base
        ours.values[.jobTitle] = .string("Pilot")
        var theirs = base
        theirs.values[.note] = .string("Hello")
        let result = try RecordFileMerger.merge(
            base: file(base), ours: file(ours), theirs: file(theirs), path: "/tmp/.merge_file_a1b2c3")
        #expect(result.conflicts.isEmpty)
        let merged = try PersonRecordCoder.decode(result.merged, path: path).state
        #expect(merged.string(.jobTitle) == "Pilot")
        #expect(merged.string(.note) == "Hello")
        var group = GroupState()
        group.name = "Friends"
        #expect(RecordFileKind.detect(GroupRecordCoder.encode(id: RecordID(1), state: group), path: "/tmp/x") == .group)
        #expect(RecordFileKind.detect(Manifest().data, path: "/tmp/x") == .manifest)
        #expect(RecordFileKind.detect(Data("ann-a\n".utf8), path: "/tmp/x") == .members)
    }
}

extension PersonState {
    fileprivate var phonesEntries: [MultiValue<String>.Entry]? {
        if case .multiString(let phones)? = values[.phones] { return phones.entries }
        return nil
    }
}
