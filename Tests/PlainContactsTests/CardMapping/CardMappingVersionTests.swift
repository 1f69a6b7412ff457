import Foundation
import PlainContactsSystem
import Testing

@testable import PlainContacts

/// The server names a person's card by its record file and ``CardMapping/personCardVersion``
/// (its ETag), so a change that makes other cards from the same records must raise the version:
/// otherwise clients keep the cards made before. This test records what the cards of every
/// vCard fixture look like under the current version, and fails when they change.
@Suite struct CardMappingVersionTests {
    /// The version and the SHA-256 digest of the fixtures' cards made under it.
    private static let recorded = (version: 2, digest: "496a461a7510c5c2a4710bf053c2e7c5442a9fcdc960bce43d2cec95c0d8bcc8")

    /// Every fixture person's card as the server makes it, in the version it came in and in 3.0 and 4.0.
    private func cards() throws -> Data {
        var made = Data()
        let key = try #require(RecordKey(rawValue: "fixture-person-abc234"))
        for path in VCardFixtures.parsable {
            for card in try VCardFixtures.cards(path) {
                guard case .person(let state, _, _) = try CardMapping.read(Data(VCardWriter.serialize(card).utf8), href: "x.vcf")
                else { continue }
                let person = Person()
                person.key = key
                person.recordID = RecordID(rawValue: 7)
                person.state = state
                let image: Data? = if case .none = state.image { nil } else { Data("image".utf8) }
                for version in [nil, VCardVersion.v3, .v4] {
                    made += CardMapping.data(for: person, imageData: image, version: version, carryingKey: false)
                }
            }
        }
        return made
    }

    @Test func theCardsOfTheFixturesAreThoseRecordedForThisVersion() throws {
        let digest = SHA256.hexString(SHA256.hash(try cards()))
        #expect(
            CardMapping.personCardVersion == Self.recorded.version && digest == Self.recorded.digest,
            """
            The cards made from the same records changed (digest \(digest)). Raise \
            CardMapping.personCardVersion, so that servers give those cards new ETags, and record \
            the new version and digest in this test.
            """)
    }

    @Test func makingTheCardsTwiceGivesTheSameBytes() throws {
        #expect(try cards() == cards())
    }
}
