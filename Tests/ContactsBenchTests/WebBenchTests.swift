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

    /// The built `contacts-bench --web` run on 300 people, once, as a program of its own (a
    /// test runner blocks signals its children would inherit): every figure is in the table,
    /// each answer having been checked against the store on the way; the browser's figures
    /// when Chromium is installed, else the line saying they were skipped.
    @Test func printsEveryFigureOfTheWebPagesAtASmallSize() throws {
        let own = try #require(BenchSuite.ownExecutable())
        let bench = URL(fileURLWithPath: own).deletingLastPathComponent().appending(path: "contacts-bench").path
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appending(path: "table.md").path
        let run = try ChildProcess.run(
            bench, ["--web", "--people", "300", "--runs", "1", "--generator", "swift"], output: .file(output))
        #expect(run.status == 0)
        let table = try String(contentsOfFile: output, encoding: .utf8)
        #expect(table.contains("| figure | median | min | max | size |"))
        let expectsBrowser = HeadlessBrowser.installed != nil
        for figure in WebBench.Figure.allCases where expectsBrowser || !figure.isBrowser {
            #expect(table.contains("| \(figure.label)"), "missing: \(figure.label)")
        }
        #expect(table.contains(HeadlessBrowser.missing) != expectsBrowser)
        #expect(table.contains("(page "))
    }
}
