import DAVTestSupport
import Foundation
import PlainContacts

/// `contacts-bench --web`: the web pages of `contacts serve` on a store of N generated people,
/// served without users: the people list's first page right after the server started, the
/// first page and a middle page with the list kept, a search with many matches and one with
/// few (the list alone, as the page's search as you type fetches it), the first page after a
/// change made with `contacts set`, the JSON API's first page, and the first page right after
/// the server restarted on the same store; then, when Chromium and
/// its WebDriver are installed, the browser's time to the first drawn list (``HeadlessBrowser``).
///
/// Requests go through ``RawHTTPConnection`` (one kept-alive connection, blocking sockets),
/// so the figures are the server's own: from the request sent to the response's last byte.
/// Every answer is checked against the store, read with the library (``WebBenchExpectation``):
/// its status, the number of people it says it found and the lines it lists, so that a fast
/// wrong answer cannot pass for a fast right one.
struct WebBench {
    /// The people generated.
    let people: Int
    /// The runs each figure is the median of.
    let runs: Int

    /// The words of the search with many matches.
    static let manyMatches = "a"

    /// The figures, in the table's order.
    enum Figure: CaseIterable {
        case firstPageCold, firstPage, middlePage, searchMany, searchFew, afterChange, peopleJSON, firstPageRestarted
        case firstPaint, domContentLoaded, loaded

        /// The figure's name in the table, without the details of the run (which page, which
        /// words, how many matches).
        var label: String {
            switch self {
            case .firstPageCold: "people list, first page, first request after the server started"
            case .firstPage: "people list, first page, list kept"
            case .middlePage: "people list, a middle page"
            case .searchMany: "search with many matches, list only"
            case .searchFew: "search with few matches, list only"
            case .afterChange: "people list, first page after a change made with `contacts set`"
            case .peopleJSON: "`people.json`, first page"
            case .firstPageRestarted: "people list, first page, first request after the server restarted"
            case .firstPaint: "browser: first contentful paint of the people page"
            case .domContentLoaded: "browser: `DOMContentLoaded` handled"
            case .loaded: "browser: `load` handled"
            }
        }

        /// Whether the figure comes from the browser.
        var isBrowser: Bool { [.firstPaint, .domContentLoaded, .loaded].contains(self) }
    }

    /// One figure's runs, in seconds, the size of its answer and what was asked.
    struct Measured {
        var seconds: [Double] = []
        var bytes = 0
        var detail = ""
    }

    /// What one size measured.
    struct Result {
        /// The people in the store after the import.
        var people: Int
        var figures: [Figure: Measured]
        /// Why the browser's figures are missing, when they are.
        var browserSkipped: String?
    }

    /// Measures every size of `options` and prints a table for each.
    ///
    /// - Throws: when the `contacts` tool is missing, and the generator's, the import's, the
    ///   server's and the checks' errors.
    static func run(_ options: BenchOptions, source: CardSource) throws {
        guard let contacts = BenchSuite.contactsTool(options.contactsPath) else {
            throw ContactsError(.io, "the contacts tool was not found; build it or pass --contacts PATH")
        }
        let workspace = try Workspace(keep: options.keep)
        defer { workspace.finish() }
        for size in options.sizes {
            let bench = WebBench(people: size, runs: options.runs)
            let result = try bench.measure(contacts: contacts, source: source, in: workspace)
            print(bench.table(result) + "\n")
        }
    }

    /// Generates the people, imports them into a new store with the `contacts` tool, serves
    /// it and times every figure.
    ///
    /// - Throws: the generator's, the import's, the server's and the checks' errors.
    func measure(contacts: String, source: CardSource, in workspace: Workspace) throws -> Result {
        let cards = workspace.path("web-cards-\(people).vcf")
        Progress.note("generating \(Format.count(people)) cards")
        _ = try source.writeSingleFile(count: people, to: cards)
        let store = workspace.path("web-store-\(people)")
        Progress.note("contacts import: \(Format.count(people)) cards into a new store")
        try Self.tool(contacts, ["init", store.path])
        try Self.tool(contacts, ["--store", store.path, "import", cards.path])
        workspace.remove(cards)
        let expected = try WebBenchExpectation(store: store)
        // The import's files are given the seconds a file needs before its signature is
        // trusted, as the CardDAV figures' store is (`ServingStore.warm()`).
        Thread.sleep(forTimeInterval: 2.5)
        var served = try ServingStore(contacts: contacts, store: store)
        defer { served.stop() }
        let client = try WebBenchClient(port: served.port)
        var figures: [Figure: Measured] = [:]

        let (cold, coldAnswer) = try client.timedGet(client.bookPath)
        try expected.checkList(coldAnswer, page: 1, of: expected.everyone, "the first page")
        figures[.firstPageCold] = Measured(seconds: [cold], bytes: coldAnswer.body.count)

        let middle = expected.middlePage
        let requests: [(Figure, String, WebBenchExpectation.Listing, page: Int)] = [
            (.firstPage, client.bookPath, expected.everyone, 1),
            (.middlePage, client.bookPath + "?page=\(middle)", expected.everyone, middle),
            (.searchMany, client.bookPath + "?q=\(WebBenchClient.encoded(Self.manyMatches))&list=1", expected.many, 1),
            (.searchFew, client.bookPath + "?q=\(WebBenchClient.encoded(expected.fewWords))&list=1", expected.few, 1),
        ]
        figures[.middlePage, default: Measured()].detail = "page \(middle) of \(expected.everyone.pages)"
        figures[.searchMany, default: Measured()].detail = "`\(Self.manyMatches)`, \(Format.count(expected.many.count)) found"
        figures[.searchFew, default: Measured()].detail = "`\(expected.fewWords)`, \(Format.count(expected.few.count)) found"
        for run in 0..<runs {
            Progress.note("web pages on \(Format.count(expected.everyone.count)) people: run \(run + 1) of \(runs)")
            // Each request once untimed, so that its list is kept (the change of the run
            // before made the server read every list again).
            for (_, path, _, _) in requests { _ = try client.get(path) }
            _ = try client.get(client.jsonPath)
            for (figure, path, listing, page) in requests {
                let (seconds, answer) = try client.timedGet(path)
                try expected.checkList(answer, page: page, of: listing, figure.label)
                figures[figure, default: Measured()].seconds.append(seconds)
                figures[figure, default: Measured()].bytes = answer.body.count
            }
            let (jsonSeconds, json) = try client.timedGet(client.jsonPath)
            try expected.checkJSON(json)
            figures[.peopleJSON, default: Measured()].seconds.append(jsonSeconds)
            figures[.peopleJSON, default: Measured()].bytes = json.body.count

            let phone = "+1 555 7\(String(format: "%03d", run % 1000))"
            try Self.tool(contacts, ["--store", store.path, "set", expected.firstID, #"phones=[{"label": "mobile", "value": "\#(phone)"}]"#])
            let (changed, answer) = try client.timedGet(client.bookPath)
            try expected.checkList(answer, page: 1, of: expected.everyone, "the first page after a change")
            guard answer.text.contains(phone) else {
                throw ContactsError(.io, "the first page after a change does not show the phone just set")
            }
            figures[.afterChange, default: Measured()].seconds.append(changed)
            figures[.afterChange, default: Measured()].bytes = answer.body.count
        }

        // A server started again on the store it served: its record of the cards is there.
        served.stop()
        served = try ServingStore(contacts: contacts, store: store)
        let restarted = try WebBenchClient(port: served.port)
        let (again, againAnswer) = try restarted.timedGet(restarted.bookPath)
        try expected.checkList(againAnswer, page: 1, of: expected.everyone, "the first page after a restart")
        figures[.firstPageRestarted] = Measured(seconds: [again], bytes: againAnswer.body.count)

        var browserSkipped: String?
        if let browser = HeadlessBrowser.installed {
            let loads = try browser.timePeoplePage(
                signIn: "http://127.0.0.1:\(served.port)/web/", page: "http://127.0.0.1:\(served.port)\(restarted.bookPath)",
                lines: expected.everyone.lines(onPage: 1), loads: runs, profile: workspace.path("browser-\(people)"))
            figures[.firstPaint] = Measured(seconds: loads.map(\.firstContentfulPaint), bytes: loads.last?.bytes ?? 0)
            figures[.domContentLoaded] = Measured(seconds: loads.map(\.domContentLoaded), bytes: loads.last?.bytes ?? 0)
            figures[.loaded] = Measured(seconds: loads.map(\.loaded), bytes: loads.last?.bytes ?? 0)
        } else {
            browserSkipped = HeadlessBrowser.missing
        }
        return Result(people: expected.everyone.count, figures: figures, browserSkipped: browserSkipped)
    }

    /// The Markdown table of one size's figures.
    func table(_ result: Result) -> String {
        var lines = [
            "Web pages of contacts serve on \(Format.count(result.people)) people, median of \(runs) "
                + "(the first request after the start and after the restart: one); the server's figures from the request sent to the "
                + "answer's last byte on one kept-alive connection, the browser's from the navigation's start:",
            "",
            "| figure | median | min | max | size |",
            "|---|---:|---:|---:|---:|",
        ]
        for figure in Figure.allCases {
            guard let measured = result.figures[figure], !measured.seconds.isEmpty else { continue }
            let sample = Sample(runs: measured.seconds)
            let label = measured.detail.isEmpty ? figure.label : "\(figure.label) (\(measured.detail))"
            lines.append(
                "| \(label) | \(Format.seconds(sample.median)) | \(Format.seconds(sample.min)) | "
                    + "\(Format.seconds(sample.max)) | \(Format.bytes(measured.bytes)) |")
        }
        if let skipped = result.browserSkipped { lines += ["", skipped] }
        return lines.joined(separator: "\n")
    }

    /// Runs the `contacts` tool, its output discarded.
    ///
    /// - Throws: ``ContactsError/Code/io`` when it cannot start or fails.
    private static func tool(_ contacts: String, _ arguments: [String]) throws {
        let result = try ChildProcess.run(contacts, arguments, output: .discard)
        guard result.status == 0 else {
            throw ContactsError(.io, "contacts \(arguments.dropFirst(2).first ?? arguments.first ?? "") exited with \(result.status)")
        }
    }
}
