import Foundation

/// The command line of `contacts-bench`.
struct BenchOptions {
    /// What the invocation asks for.
    enum Mode {
        /// Measure, at one size or several.
        case measure
        /// Write generated cards into one `.vcf` file and exit.
        case generateFile(URL)
        /// Write generated cards, one `.vcf` per person, into a folder and exit.
        case generateDirectory(URL)
        /// Import a `.vcf` file into a new store and exit.
        case createStore(URL, from: URL)
        /// Open a store, list it with composite names, and exit (the memory probe's child).
        case childList(URL)
        /// Run a program, write its peak memory to a file, exit with its status (the memory
        /// probe's intermediary when `/usr/bin/time` is missing).
        case timeChild(URL, program: String, arguments: [String])
        /// Run the store fuzzer for this many cases and exit.
        case fuzz(cases: Int)
        /// Run the vCard import fuzzer for this many cases over the vCard files under a folder
        /// and exit.
        case fuzzVCard(cases: Int, fixtures: URL)
        /// Run the WebDAV XML fuzzer (the server's and the client's readers) for this many cases.
        case fuzzXML(cases: Int)
        /// Measure how much of the vCard files under a folder survives import, export and a
        /// round trip, and exit; with every lost line when `details` is set.
        case fidelity(URL, details: Bool)
        /// Count the fields and labels of the other programs' exports under a folder (CSV,
        /// LDIF, abook, mutt, Eudora) that an import keeps, and exit; with every loss when
        /// `details` is set.
        case importFidelity(URL, details: Bool)
        /// `contacts sync` beside vdirsyncer against Radicale and Xandikos.
        case sync
        /// CardDAV servers answering a sync's requests on the same cards.
        case serve
        /// The web pages of `contacts serve`: the people list, searches and the JSON API as the
        /// server answers them, and the browser's time to draw the list.
        case web
        /// Time importing the same people from a vCard file and from Google's CSV.
        case importFormats
        /// Many clients at once on one server for a while, then a check that nothing was lost.
        case serveLoad(server: String)
        /// CalDAVTester's CardDAV scripts against `contacts serve` and Radicale, from the
        /// CalDAVTester folder given.
        case caldavtester(URL)
        /// Print the usage.
        case help
    }

    var mode: Mode = .measure
    var sizes: [Int] = [10_000]
    var store: URL?
    var runs = 5
    var importRuns: Int?
    var queries = ["ka", "bell", "山田", "김"]
    var json = false
    var saveJSON: URL?
    var generator = CardSource.Choice.automatic
    var seed = ContactGenerator.defaultSeed
    var contactsPath: String?
    var keep = false
    var clients = 32
    var seconds = 60
    /// Whether `--serve` also measures Radicale and Xandikos.
    var peers = true
    /// How many books `--serve` also serves from one server, each a store of N cards (1: none).
    var books = 1
    /// The percentages of fields and labels every format must keep for `--import-fidelity` to
    /// exit 0 (`--require 97,95`); `nil` to measure only.
    var require: (fields: Double, labels: Double)?

    static let usage = """
        Usage: contacts-bench [--people N | --sizes N,N,...] [--store DIR] [--runs R] [--json]
                              [--save-json FILE] [other options below]
               contacts-bench --create-store DIR --from-vcf FILE
               contacts-bench --generate-vcf FILE [--people N]
               contacts-bench --generate-vdir DIR [--people N]
               contacts-bench --fuzz N [--seed S]
               contacts-bench --fuzz-vcard N [--seed S] [--fixtures DIR]
               contacts-bench --fuzz-xml N [--seed S]
               contacts-bench --fidelity DIR [--fidelity-details] [--json]
               contacts-bench --import-fidelity DIR [--details] [--json] [--require F,L]
               contacts-bench --sync [--people N] [--runs R]
               contacts-bench --serve [--people N] [--runs R] [--no-peers] [--books B]
               contacts-bench --web [--people N | --sizes N,N,...] [--runs R]
               contacts-bench --import-formats [--people N] [--runs R]
               contacts-bench --serve-load SERVER [--people N] [--clients C] [--seconds S]
               contacts-bench --caldavtester [--caldavtester-dir DIR]

        Measures PlainContacts on a generated store of N people (default 10000), or on a copy
        of an existing store, and prints a Markdown table (median, min and max of R runs, and
        each figure as a multiple of the time to read every record file's raw bytes).
        Build it optimized: swift run -c release contacts-bench

        Options:
          --people N           people in the generated store (default 10000)
          --sizes N,N,...      run everything at each size and print one table with a column
                               per size and how each figure grows
          --store DIR          measure a copy of this store instead of a generated one
          --runs R             runs per figure (default 5)
          --import-runs K      imports to time (default R up to 10000 people, else 1)
          --queries Q,Q,...    name searches to time (default ka,bell,山田,김)
          --json               print a JSON object instead of the table
          --save-json FILE     also write the JSON object to FILE
          --generator G        auto: ../shared/gen_contacts.py beside the package when it
                               exists and python3 runs, else the built-in Swift generator,
                               which writes the same cards byte for byte; or python, swift
          --seed S             generator seed (default 63, as gen_contacts.py)
          --contacts PATH      the contacts tool for the per-process figures (default: the one
                               built beside contacts-bench)
          --keep               keep the temporary folder and print where it is
          --create-store DIR --from-vcf FILE
                               import FILE into a new store in DIR and exit
          --generate-vcf FILE  write the generated cards into FILE and exit
          --generate-vdir DIR  write one FILE.vcf per generated person into DIR and exit
          --fuzz N             run N cases of the store fuzzer (damaged record, membership
                               and manifest files, merge-driver inputs, set arguments, a store
                               on disk) from seed S, print cases per second and any failure;
                               exit 1 when a case fails
          --fuzz-vcard N       run N cases of the vCard import fuzzer (damaged copies of the
                               vCard files under --fixtures DIR, default
                               Tests/PlainContactsTests/Fixtures/vcards, read in memory and
                               imported strictly and leniently into a store on disk) from
                               seed S, print cases per second and any failure; exit 1 when a
                               case fails
          --fuzz-xml N         run N cases of the WebDAV XML fuzzer (real clients' request
                               bodies sent to a served store, real servers' answers read by
                               the client, and both read by the one XML entry point, damaged
                               with invalid UTF-8 in every kind of place, other encodings,
                               huge names and cuts) from seed S, print cases per second and
                               any failure; exit 1 when a case fails
          --fidelity DIR       import every vCard file under DIR into a fresh store, export
                               each person as 3.0 and 4.0 and count the original lines
                               found identical, equivalent or lost; import the 3.0 export
                               again and count the people whose export changes; print the
                               figures (--json: as JSON)
          --fidelity-details   also print each refused card, lost line (file, card line,
                               property and parameters, never the value) and unstable card
          --import-fidelity DIR
                               count the fields and labels of every CSV, LDIF, abook, mutt
                               alias and Eudora nicknames file under DIR with the bench's own
                               readers, import each into a fresh store as contacts import
                               does, and print how many are found again, per format and in
                               all (--json: as JSON); exits 0 whatever is lost
          --details            with --import-fidelity, also print each file's figures and each
                               lost field or label: file, line, column and the value itself
                               (so run it on test exports, not on a real address book you
                               mean to share the output of)
          --require F,L        with --import-fidelity, exit 1 when a format keeps less than
                               F% of its fields or L% of its labels (e.g. 97,95)
          --sync               time contacts sync and vdirsyncer 0.21 syncing the same
                               Radicale 3.9 and Xandikos 0.4 collection of N generated cards
                               (started on 127.0.0.1 from .venv-dav): the first sync, a sync
                               after one card changed on the server, and one with no change
          --web                time the web pages of contacts serve on N people imported
                               with the contacts tool and served without users: the
                               people list's first page right after the start, the first
                               and a middle page with the list kept, a search with many
                               matches and one with few (the list alone, as the page's
                               script fetches it), the first page after contacts set,
                               and people.json's first page; with chromium and
                               chromedriver on the PATH also headless Chromium's first
                               contentful paint, DOMContentLoaded and load of the page
          --import-formats     time importing the same people into a new store from one
                               vCard file and from Google's CSV of them, alternating
          --serve              time CardDAV servers (Radicale 3.9, Xandikos 0.4) on the same
                               N cards: a Depth 1 PROPFIND of every ETag, a multiget of 500
                               cards, a sync-collection after one change, and a PUT; for
                               contacts serve also the first listing after the import, the
                               first listing after a restart and the server's peak memory
          --no-peers           --serve measures contacts serve alone
          --books B            --serve also measures one contacts serve serving B stores of N
                               cards each to one user, every book timed as the one store was
          --serve-load SERVER  C clients (default 32) for S seconds (default 60) of mixed
                               PROPFIND, REPORT, GET and PUT on SERVER (contacts: contacts
                               serve, with the command line editing the store meanwhile;
                               radicale; xandikos) holding N cards; reports requests/s, p50
                               and p99, and exits 1 on any 5xx, failed request, acknowledged
                               write or command-line edit lost, or record ID listed twice
          --caldavtester       run Apple's CardDAV conformance scripts (CalDAVTester, Python
                               2.7) against contacts serve and Radicale 3.9, each with users
                               user01 and user02, and print the tests each passes per script
                               and the failed ones; exits 0 whatever fails, 1 when Python 2.7
                               or a server is missing
          --caldavtester-dir DIR
                               the CalDAVTester copy to run (default ../shared/caldavtester
                               beside the package); it is copied, never written
          --child-list DIR, --time-child FILE PROGRAM ARGS...
                               used by the memory figures: open and list DIR; run PROGRAM
                               and write its peak memory (kB) to FILE, as /usr/bin/time -o
          -h, --help           show this help
        """

    /// Parses the arguments (without the program name).
    ///
    /// - Throws: ``UsageError`` for an unknown option or a bad value.
    init(arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        var createStore: URL?
        var fromFile: URL?
        var sizesGiven = false
        var peopleGiven = false
        var fidelityDetails = false
        var importDetails = false
        var fixtures: URL?
        var caldavtesterFolder: URL?
        func value(_ option: String) throws -> String {
            guard let next = iterator.next() else { throw UsageError("\(option) needs a value") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--people":
                sizes = [try Self.count(try value(argument), argument)]
                peopleGiven = true
            case "--sizes":
                sizes = try value(argument).split(separator: ",").map { try Self.count(String($0), argument) }
                sizesGiven = true
                guard !sizes.isEmpty else { throw UsageError("--sizes needs at least one size") }
            case "--store": store = URL(fileURLWithPath: try value(argument))
            case "--runs": runs = try Self.count(try value(argument), argument)
            case "--import-runs": importRuns = try Self.count(try value(argument), argument)
            case "--queries":
                queries = try value(argument).split(separator: ",").map(String.init)
            case "--json": json = true
            case "--sync": mode = .sync
            case "--serve": mode = .serve
            case "--no-peers": peers = false
            case "--books": books = try Self.count(try value(argument), argument)
            case "--web": mode = .web
            case "--import-formats": mode = .importFormats
            case "--serve-load": mode = .serveLoad(server: try value(argument))
            case "--caldavtester": mode = .caldavtester(CalDAVTesterRun.defaultFolder)
            case "--caldavtester-dir": caldavtesterFolder = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--clients": clients = try Self.count(try value(argument), argument)
            case "--seconds": seconds = try Self.count(try value(argument), argument)
            case "--save-json": saveJSON = URL(fileURLWithPath: try value(argument))
            case "--generator":
                let text = try value(argument)
                guard let choice = CardSource.Choice(rawValue: text) else {
                    throw UsageError("--generator is auto, python or swift")
                }
                generator = choice
            case "--seed":
                guard let number = UInt64(try value(argument)) else { throw UsageError("--seed needs a whole number") }
                seed = number
            case "--contacts": contactsPath = try value(argument)
            case "--keep": keep = true
            case "--create-store": createStore = URL(fileURLWithPath: try value(argument))
            case "--from-vcf": fromFile = URL(fileURLWithPath: try value(argument))
            case "--generate-vcf": mode = .generateFile(URL(fileURLWithPath: try value(argument)))
            case "--generate-vdir": mode = .generateDirectory(URL(fileURLWithPath: try value(argument)))
            case "--fuzz": mode = .fuzz(cases: try Self.count(try value(argument), argument))
            case "--fuzz-vcard":
                mode = .fuzzVCard(
                    cases: try Self.count(try value(argument), argument),
                    fixtures: URL(fileURLWithPath: VCardFuzzRun.defaultFixtures, isDirectory: true))
            case "--fuzz-xml": mode = .fuzzXML(cases: try Self.count(try value(argument), argument))
            case "--fixtures": fixtures = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--fidelity": mode = .fidelity(URL(fileURLWithPath: try value(argument)), details: false)
            case "--fidelity-details": fidelityDetails = true
            case "--import-fidelity": mode = .importFidelity(URL(fileURLWithPath: try value(argument)), details: false)
            case "--details": importDetails = true
            case "--require": require = try Self.percentages(try value(argument))
            case "--child-list": mode = .childList(URL(fileURLWithPath: try value(argument)))
            case "--time-child":
                let file = URL(fileURLWithPath: try value(argument))
                let program = try value(argument)
                mode = .timeChild(file, program: program, arguments: Array(IteratorSequence(iterator)))
                return
            case "-h", "--help": mode = .help
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        if case .help = mode { return }
        if fidelityDetails {
            guard case .fidelity(let folder, _) = mode else { throw UsageError("--fidelity-details goes with --fidelity") }
            mode = .fidelity(folder, details: true)
        }
        if importDetails || require != nil {
            guard case .importFidelity(let folder, _) = mode else {
                throw UsageError("\(importDetails ? "--details" : "--require") goes with --import-fidelity")
            }
            mode = .importFidelity(folder, details: importDetails)
        }
        if let fixtures {
            guard case .fuzzVCard(let cases, _) = mode else { throw UsageError("--fixtures goes with --fuzz-vcard") }
            mode = .fuzzVCard(cases: cases, fixtures: fixtures)
        }
        if let caldavtesterFolder {
            guard case .caldavtester = mode else { throw UsageError("--caldavtester-dir goes with --caldavtester") }
            mode = .caldavtester(caldavtesterFolder)
        }
        switch (createStore, fromFile) {
        case let (store?, file?): mode = .createStore(store, from: file)
        case (nil, nil): break
        default: throw UsageError("--create-store and --from-vcf go together")
        }
        if sizesGiven && peopleGiven { throw UsageError("give --people or --sizes, not both") }
        if store != nil && sizesGiven { throw UsageError("--store measures one store; --sizes generates several") }
        if store != nil && peopleGiven { throw UsageError("--store measures the store as it is; drop --people") }
    }

    /// The number of imports to time at a size.
    func importRuns(people: Int) -> Int {
        importRuns ?? (people <= 10_000 ? runs : 1)
    }

    /// `97,95` as the percentages of fields and labels.
    private static func percentages(_ text: String) throws -> (fields: Double, labels: Double) {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: " %"))) }
        guard parts.count == 2, let fields = parts[0], let labels = parts[1], (0...100).contains(fields),
            (0...100).contains(labels)
        else { throw UsageError("--require needs two percentages, fields and labels: 97,95") }
        return (fields, labels)
    }

    private static func count(_ text: String, _ option: String) throws -> Int {
        let digits = text.replacingOccurrences(of: "_", with: "")
        guard let number = Int(digits), number > 0 else {
            throw UsageError("\(option) needs a positive whole number, not '\(text)'")
        }
        return number
    }
}
