import Testing

@testable import contacts_bench

@Suite("Bench options")
struct BenchOptionsTests {
    @Test func readsTheFidelityModeWithItsDetails() throws {
        let options = try BenchOptions(arguments: ["--fidelity", "cards", "--fidelity-details", "--json"])
        guard case .fidelity(let folder, let details) = options.mode else {
            Issue.record("not the fidelity mode")
            return
        }
        #expect(folder.lastPathComponent == "cards")
        #expect(details)
        #expect(options.json)
    }

    @Test func readsTheCalDAVTesterModeWithItsFolder() throws {
        let options = try BenchOptions(arguments: ["--caldavtester-dir", "ct", "--caldavtester"])
        guard case .caldavtester(let folder) = options.mode else {
            Issue.record("not the CalDAVTester mode")
            return
        }
        #expect(folder.lastPathComponent == "ct")
    }

    @Test func refusesACalDAVTesterFolderWithoutTheCalDAVTesterMode() {
        #expect(throws: UsageError.self) { try BenchOptions(arguments: ["--caldavtester-dir", "ct"]) }
    }

    @Test func readsTheImportFidelityModeWithDetailsAndARequirement() throws {
        let options = try BenchOptions(arguments: ["--details", "--import-fidelity", "exports", "--require", "97,95%"])
        guard case .importFidelity(let folder, let details) = options.mode else {
            Issue.record("not the import fidelity mode")
            return
        }
        #expect(folder.lastPathComponent == "exports")
        #expect(details)
        #expect(options.require?.fields == 97)
        #expect(options.require?.labels == 95)
    }

    @Test func refusesDetailsOrARequirementWithoutTheImportFidelityMode() {
        #expect(throws: UsageError.self) { try BenchOptions(arguments: ["--details"]) }
        #expect(throws: UsageError.self) { try BenchOptions(arguments: ["--fidelity", "cards", "--require", "97,95"]) }
    }

    @Test func refusesARequirementThatIsNotTwoPercentages() {
        for text in ["97", "97,95,90", "97,x", "120,95"] {
            #expect(throws: UsageError.self) { try BenchOptions(arguments: ["--import-fidelity", "e", "--require", text]) }
        }
    }

    @Test func refusesFidelityDetailsWithoutTheFidelityMode() {
        #expect(throws: UsageError.self) { try BenchOptions(arguments: ["--fidelity-details"]) }
    }
}
