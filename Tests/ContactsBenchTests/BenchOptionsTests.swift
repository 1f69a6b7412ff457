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

    @Test func refusesFidelityDetailsWithoutTheFidelityMode() {
        #expect(throws: UsageError.self) { try BenchOptions(arguments: ["--fidelity-details"]) }
    }
}
