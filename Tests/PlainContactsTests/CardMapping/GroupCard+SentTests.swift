import Foundation
import Testing
@testable import PlainContacts

@Suite struct GroupCardSentTests {
    private static let sent = [
        "BEGIN:VCARD", "VERSION:3.0", "X-ADDRESSBOOKSERVER-KIND:group", "X-ADDRESSBOOKSERVER-MEMBER:user03@example.com",
        "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ABC:ABPerson", "PRODID:-//Apple Inc.//AddressBook 6.1//EN", "UID:g-1",
        "FN:Changed Group", "N:ChangedGroup;;;;", "X-PLAINCONTACTS-KEY:changed-group-7kq2mx", "END:VCARD", "",
    ].joined(separator: "\r\n")

    /// The sent card, and a group state that keeps it, as a `PUT` leaves them.
    private func kept() throws -> (card: VCard, state: GroupState) {
        let card = try #require(try VCardReader.parse(Data(Self.sent.utf8), source: "g.vcf").first)
        var state = GroupState()
        state.name = "Changed Group"
        state.unknownFields[VCardRecordFields.uidKey] = .string("g-1")
        state.unknownFields[VCardRecordFields.linesKey] = .array([
            .string("X-ADDRESSBOOKSERVER-MEMBER:user03@example.com"), .string("X-ADDRESSBOOKSERVER-MEMBER:ABC:ABPerson"),
        ])
        GroupCard.keepSent(card, in: &state)
        return (card, state)
    }

    @Test func theKeptCardIsServedWhileItSaysWhatTheGroupSays() throws {
        let (card, state) = try kept()
        let made = GroupCard(group: state, key: nil, memberUIDs: [])
        let served = try #require(made.sentCard(in: state))
        #expect(served.properties.map(\.name) == card.properties.map(\.name).filter { $0 != CardMapping.keyProperty })
        #expect(VCardWriter.contentLine(try #require(served.first(named: "N"))) == "N:ChangedGroup;;;;")
    }

    @Test func aRenamedGroupOrOneWithOtherMembersOrAnotherFormIsMadeAfresh() throws {
        let (_, state) = try kept()
        var renamed = state
        renamed.name = "Renamed"
        #expect(GroupCard(group: renamed, key: nil, memberUIDs: []).sentCard(in: renamed) == nil)
        #expect(GroupCard(group: state, key: nil, memberUIDs: ["katie"]).sentCard(in: state) == nil)
        var other = GroupCard(group: state, key: nil, memberUIDs: [])
        other.form = .rfc6350
        #expect(other.sentCard(in: state) == nil)
    }

    @Test func aCardMadeAfreshSpellsMembersAsTheKeptCardDid() throws {
        let (_, state) = try kept()
        let values = GroupCard.sentMemberValues(in: state)
        #expect(values == ["user03@example.com": "user03@example.com", "ABC:ABPerson": "urn:uuid:ABC:ABPerson"])
        var renamed = state
        renamed.name = "Renamed"
        let card = GroupCard(group: renamed, key: nil, memberUIDs: ["katie"]).card(memberValues: values)
        let members = card.properties.filter { $0.name == "X-ADDRESSBOOKSERVER-MEMBER" }.map(\.text)
        #expect(members == ["urn:uuid:ABC:ABPerson", "urn:uuid:katie", "user03@example.com"])
    }

    @Test func aKeptCardThatNoLongerReadsIsNone() throws {
        var state = GroupState()
        state.unknownFields[GroupCard.sentKey] = .object(["version": .string("3.0"), "lines": .string("FN:x")])
        #expect(GroupCard.keptSent(in: state) == nil)
        state.unknownFields[GroupCard.sentKey] = .object(["version": .string("3.0"), "lines": .array([.string("FN without a colon")])])
        #expect(GroupCard.keptSent(in: state) == nil)
    }
}
