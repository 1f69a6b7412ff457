import Foundation
import Testing
@testable import PlainContacts
import PlainContactsFuzz

/// Damaged files must never crash or hang the readers of other formats: each conversion either
/// succeeds with cards the vCard reader takes strictly, or throws
/// ``ContactsError/Code/malformedInput``.
@Suite struct InterchangeFuzzTests {
    /// The seeds every run tries: fixed, so that a failure replays exactly. Set
    /// `PLAINCONTACTS_INTERCHANGE_FUZZ_SEED` to a number to replay one, or to `random` for a new one.
    static var seeds: [UInt64] {
        switch ProcessInfo.processInfo.environment["PLAINCONTACTS_INTERCHANGE_FUZZ_SEED"] {
        case "random"?: [UInt64.random(in: 1...UInt64.max)]
        case let text?: UInt64(text).map { [$0] } ?? []
        case nil: [21, 20_261_126, 2849]
        }
    }

    /// Damaged files per seed.
    static let cases = 250

    /// Fragments that bend LDIF's syntax.
    static let fragments = [
        "\n", "\n\n", "\r\n", " ", ":", "::", ":<", "#", "dn: ", "-\n", "changetype: modify\n", "member: cn=x\n",
        "objectclass: groupOfNames\n", "birthmonth: 99\n", "jpegPhoto:: ////\n", "=", ";lang-ja", "\u{0}", "\u{FEFF}",
        "=?UTF-8?Q?", "mail: \n",
    ]

    /// Fragments that bend abook's and mutt's syntax.
    static let otherFragments = [
        "[", "]", "=", ",", "\"", "<", ">", "(", ")", ":", ";", "\\\n", "#", "=?UTF-8?B?", "?=", "alias ",
        "-group ", "alias x x\n", "[format]\n", "email=", "anniversary=",
    ]

    @Test(.timeLimit(.minutes(2)), arguments: seeds)
    func damagedLDIFConvertsOrIsRefusedAsMalformed(seed: UInt64) throws {
        try fuzz(fixtures: InterchangeFixtures.names(endingIn: ".ldif"), format: .ldif, fragments: Self.fragments, seed: seed)
    }

    @Test(.timeLimit(.minutes(2)), arguments: seeds)
    func damagedAbookFilesConvertOrAreRefusedAsMalformed(seed: UInt64) throws {
        try fuzz(
            fixtures: InterchangeFixtures.names(endingIn: ".addressbook"), format: .abook, fragments: Self.otherFragments,
            seed: seed)
    }

    @Test(.timeLimit(.minutes(2)), arguments: seeds)
    func damagedMuttAliasFilesConvertOrAreRefusedAsMalformed(seed: UInt64) throws {
        try fuzz(
            fixtures: InterchangeFixtures.names(endingIn: ".aliases"), format: .mutt, fragments: Self.otherFragments,
            seed: seed)
    }

    /// Converts ``cases`` damaged copies of the fixtures, leniently and strictly.
    private func fuzz(fixtures: [String], format: ContactFileFormat, fragments: [String], seed: UInt64) throws {
        let originals = try fixtures.map(InterchangeFixtures.bytes)
        try #require(!originals.isEmpty)
        var random = SeededRandom(seed: seed)
        for index in 0..<Self.cases {
            var bytes = originals[Int.random(in: 0..<originals.count, using: &random)]
            for _ in 0..<Int.random(in: 1...4, using: &random) { mutate(&bytes, fragments: fragments, using: &random) }
            for strict in [false, true] {
                do {
                    let converted = try ContactConverter.convert(
                        bytes, source: "fuzz.\(format.rawValue)", format: format, strict: strict)
                    let cards = try VCardReader.parse(Data(converted.vCardText), source: "converted", strict: true)
                    #expect(cards.count == converted.cardCount, "seed \(seed) case \(index)")
                } catch let error as InterchangeError {
                    #expect(error.code == .malformedInput, "seed \(seed) case \(index): \(error)")
                }
            }
        }
    }

    /// One random change: a byte flipped, the file cut, a line doubled or dropped, a fragment put in.
    private func mutate(_ bytes: inout [UInt8], fragments: [String], using random: inout SeededRandom) {
        guard !bytes.isEmpty else { return }
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
        case 1:
            bytes.removeLast(bytes.count - position)
        case 2, 3:
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            var changed = Array(lines)
            let line = Int.random(in: 0..<changed.count, using: &random)
            if Bool.random(using: &random) { changed.insert(changed[line], at: line) } else { changed.remove(at: line) }
            bytes = Array(changed.joined(separator: [UInt8(ascii: "\n")]))
        default:
            let fragment = fragments[Int.random(in: 0..<fragments.count, using: &random)]
            bytes.insert(contentsOf: Array(fragment.utf8), at: position)
        }
    }
}
