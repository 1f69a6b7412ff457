import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
import PlainContactsFuzz

/// Mutates real exports and feeds them to the CSV reader: whatever the bytes, the reader ends,
/// and either converts or refuses with ``ContactsError/Code/malformedInput``.
///
/// `CONTACTS_INTERCHANGE_FUZZ_SEED=N` replays a run; `CONTACTS_INTERCHANGE_FUZZ_ROUNDS=N` runs longer.
@Suite struct CSVFuzzTests {
    private static let environment = ProcessInfo.processInfo.environment
    private static let seed = environment["CONTACTS_INTERCHANGE_FUZZ_SEED"].flatMap(UInt64.init) ?? 2126
    private static let rounds = environment["CONTACTS_INTERCHANGE_FUZZ_ROUNDS"].flatMap(Int.init) ?? 400

    /// Bytes that matter to CSV and to the text decoding.
    private static let interesting: [UInt8] = [
        UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: ";"), 9, 10, 13, 0, 0xFF, 0xFE, 0xEF, 0xC3, 0x81,
        UInt8(ascii: ":"),
    ]

    /// One mutation of `bytes`.
    static func mutate(_ bytes: [UInt8], random: inout SeededRandom) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            guard !bytes.isEmpty else { return interesting.shuffled(using: &random) }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: bytes[at] = interesting.randomElement(using: &random) ?? 0
            case 1: bytes.insert(interesting.randomElement(using: &random) ?? 0, at: at)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &random)))
            case 3: bytes = Array(bytes[..<at])
            default:
                let end = min(bytes.count, at + Int.random(in: 1...200, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            }
        }
        return bytes
    }

    @Test func mutatedExportsAreConvertedOrRefusedNeverCrashing() throws {
        var random = SeededRandom(seed: Self.seed)
        let originals = try InterchangeFixtures.csvFiles.map { Array(try InterchangeFixtures.data($0)) }
        var converted = 0
        var refused = 0
        for round in 0..<Self.rounds {
            let original = originals[round % originals.count]
            let bytes = Self.mutate(original, random: &random)
            for strict in [false, true] {
                do {
                    let result = try ContactConverter.convert(bytes, source: "fuzz.csv", format: .csv, strict: strict)
                    #expect(result.sourceLines.count == result.vCardText.filter { $0 == 10 }.count)
                    converted += 1
                } catch let error as InterchangeError {
                    #expect(error.code == .malformedInput, "seed \(Self.seed) round \(round): \(error)")
                    refused += 1
                }
            }
        }
        #expect(converted > 0)
        #expect(refused > 0)
    }

    @Test func aFailedStrictImportOfAMutatedExportLeavesTheStoreByteIdentical() throws {
        var random = SeededRandom(seed: Self.seed &+ 1)
        let store = try TemporaryStore()
        let book = try store.makeBook()
        _ = try book.importContacts(from: try InterchangeFixtures.data("csv/roundcube-all.csv"), source: "all.csv")
        let original = Array(try InterchangeFixtures.data("csv/handmade-outlook-fr.csv"))
        var failures = 0
        for _ in 0..<40 {
            let before = try store.files(in: "people").map { try store.read("people/" + $0) }
            let bytes = Self.mutate(original, random: &random)
            do {
                _ = try book.importContacts(
                    from: Data(bytes), source: "fuzz.csv", format: .csv, options: VCardImportOptions(strict: true))
            } catch is any PlainContactsFailure {
                failures += 1
                #expect(try store.files(in: "people").map { try store.read("people/" + $0) } == before)
                #expect(!book.hasUnsavedChanges)
            }
        }
        #expect(failures > 0)
    }
}
