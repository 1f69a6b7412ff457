import Foundation
import Testing

@testable import contacts_bench

@Suite("Web bench")
struct WebBenchTests {
    @Test func readsTheWebModeWithItsSizes() throws {
        let options = try BenchOptions(arguments: ["--web", "--sizes", "300,1000", "--runs", "2"])
        guard case .web = options.mode else {
            Issue.record("not the web mode")
            return
        }
        #expect(options.sizes == [300, 1000])
        #expect(options.runs == 2)
    }

    /// The mode run on 300 people with the built `contacts` tool: every figure is in the
    /// table, each answer having been checked against the store on the way; the browser's
    /// figures when Chromium is installed, else the line saying they were skipped.
    @Test func timesEveryFigureOfTheWebPagesAtASmallSize() throws {
        let contacts = try #require(BenchSuite.contactsTool(nil), "the contacts tool is built beside the tests")
        let workspace = try Workspace(keep: false)
        defer { workspace.finish() }
        let bench = WebBench(people: 300, runs: 1)
        let result = try bench.measure(
            contacts: contacts, source: CardSource(choice: .swift, seed: ContactGenerator.defaultSeed), in: workspace)
        let table = bench.table(result)
        #expect(result.people > 0)
        #expect(table.contains("on \(result.people) people"))
        let expectsBrowser = HeadlessBrowser.installed != nil
        #expect((result.browserSkipped == nil) == expectsBrowser)
        for figure in WebBench.Figure.allCases where expectsBrowser || !figure.isBrowser {
            #expect(table.contains("| \(figure.label)"), "missing: \(figure.label)")
            #expect(result.figures[figure]?.seconds.isEmpty == false)
            #expect((result.figures[figure]?.bytes ?? 0) > 0)
        }
        if !expectsBrowser { #expect(table.contains(HeadlessBrowser.missing)) }
        #expect(table.contains("(page "))
    }
}
