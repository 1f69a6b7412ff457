import Testing

@testable import contacts_bench

@Suite("vCard fuzz options")
struct VCardFuzzRunTests {
    @Test func readsTheVCardFuzzModeWithTheFixturesByDefault() throws {
        let options = try BenchOptions(arguments: ["--fuzz-vcard", "100_000", "--seed", "9"])
        guard case .fuzzVCard(let cases, let fixtures) = options.mode else {
            Issue.record("not the vCard fuzz mode")
            return
        }
        #expect(cases == 100_000)
        #expect(options.seed == 9)
        #expect(fixtures.path.hasSuffix(VCardFuzzRun.defaultFixtures))
    }

    @Test func readsTheFixturesFolderInEitherOrder() throws {
        for arguments in [["--fuzz-vcard", "5", "--fixtures", "cards"], ["--fixtures", "cards", "--fuzz-vcard", "5"]] {
            let options = try BenchOptions(arguments: arguments)
            guard case .fuzzVCard(_, let fixtures) = options.mode else {
                Issue.record("not the vCard fuzz mode")
                continue
            }
            #expect(fixtures.lastPathComponent == "cards")
        }
    }

    @Test func refusesFixturesWithoutTheVCardFuzzMode() {
        #expect(throws: UsageError.self) { try BenchOptions(arguments: ["--fuzz", "5", "--fixtures", "cards"]) }
    }

    @Test func refusesACaseCountThatIsNotPositive() {
        #expect(throws: UsageError.self) { try BenchOptions(arguments: ["--fuzz-vcard", "0"]) }
    }
}
