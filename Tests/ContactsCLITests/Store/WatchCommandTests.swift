import Dispatch
import Foundation
import Testing

@Suite struct WatchCommandTests {
    /// `contacts watch` running in the background, read line by line.
    private final class Watcher {
        let process = Process()
        private let output = Pipe()
        private let errors = Pipe()
        private var buffered = Data()

        init(_ sandbox: CLISandbox, arguments: [String]) throws {
            process.executableURL = try ContactsBinary.url()
            process.arguments = ["watch"] + arguments
            process.environment = sandbox.baseEnvironment
            process.currentDirectoryURL = sandbox.root
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            try process.run()
            // A guard against hanging forever if the watcher never reacts; not a timing check.
            let process = process
            DispatchQueue.global().asyncAfter(deadline: .now() + 120) { if process.isRunning { process.terminate() } }
        }

        /// What the watcher wrote on standard error while ``waitUntilReady()`` read it.
        private(set) var errorsSoFar = ""

        /// Waits until the watcher says on standard error that it is watching.
        func waitUntilReady() -> Bool {
            while !errorsSoFar.contains("Watching") {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { return false }
                errorsSoFar += String(decoding: data, as: UTF8.self)
            }
            return true
        }

        /// The next line of standard output, or `nil` at its end.
        func nextLine() -> String? {
            while true {
                if let newline = buffered.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                    buffered = Data(buffered[buffered.index(after: newline)...])
                    return line
                }
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return nil }
                buffered += data
            }
        }
    }

    @Test func eachChangeByAnotherProgramIsOneJSONLineAndTerminationExitsZero() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let watcher = try Watcher(sandbox, arguments: ["--json"])
        try #require(watcher.waitUntilReady())

        let id = try sandbox.add(["--first", "Katie", "--last", "Bell"])

        var added: [Int] = []
        while let line = watcher.nextLine() {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["settingsChanged"] as? Bool != nil)
            added = object["addedPeople"] as? [Int] ?? []
            if !added.isEmpty { break }
        }
        #expect(added == [Int(id)])
        watcher.process.terminate()
        watcher.process.waitUntilExit()
        #expect(watcher.process.terminationReason == .exit)
        #expect(watcher.process.terminationStatus == 0)
    }

    @Test func theTextFormNamesWhatChangedAndAnInterruptExitsZero() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Katie", "--last", "Bell"])
        let watcher = try Watcher(sandbox, arguments: [])
        try #require(watcher.waitUntilReady())

        try sandbox.succeed(["set", id, "jobTitle=Pilot"])

        var line = ""
        while let next = watcher.nextLine() {
            line = next
            if line.contains("changed people") { break }
        }
        #expect(line == "changed people: \(id)")
        watcher.process.interrupt()
        watcher.process.waitUntilExit()
        #expect(watcher.process.terminationReason == .exit)
        #expect(watcher.process.terminationStatus == 0)
    }

    /// Every address `contacts email` prints, as JSON text.
    private func addresses(_ sandbox: CLISandbox) throws -> String {
        try sandbox.succeed(["email", "--json"]).stdout
    }

    /// Rewrites a person file in place, as an editor that saves in place does.
    private func edit(_ sandbox: CLISandbox, replacing old: String, with new: String) throws {
        for name in try sandbox.storeFiles(in: "people") where name.hasSuffix(".json") {
            let url = sandbox.storeFile("people/" + name)
            let text = try String(contentsOf: url, encoding: .utf8)
            guard text.contains(old) else { continue }
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(text.replacingOccurrences(of: old, with: new).utf8))
            try handle.close()
        }
    }

    @Test func aWatcherKilledWithSIGKILLIsNotTrustedAndTheNextOneReplacesIt() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        _ = try sandbox.add(["--first", "Katie", "--last", "Bell", "--email", "katie@example.com"])
        _ = try sandbox.add(["--first", "John", "--last", "Appleseed", "--email", "john@example.com"])
        let first = try Watcher(sandbox, arguments: [])
        try #require(first.waitUntilReady())
        #expect(try addresses(sandbox).contains("katie@example.com"))
        try edit(sandbox, replacing: "katie@", with: "kitty@")
        #expect(try addresses(sandbox).contains("kitty@example.com"))

        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        // Its socket is left behind; nothing answers on it, so every file is checked.
        #expect(FileManager.default.fileExists(atPath: sandbox.storeFile(".contacts/watch.socket").path))
        try edit(sandbox, replacing: "john@", with: "jean@")
        let unwatched = try addresses(sandbox)
        #expect(unwatched.contains("jean@example.com"))
        #expect(unwatched.contains("kitty@example.com"))

        let second = try Watcher(sandbox, arguments: [])
        try #require(second.waitUntilReady())
        try edit(sandbox, replacing: "jean@", with: "joan@")
        let watched = try addresses(sandbox)
        #expect(watched.contains("joan@example.com"))
        #expect(!watched.contains("jean@example.com"))
        second.process.terminate()
        second.process.waitUntilExit()
        #expect(second.process.terminationStatus == 0)
        // A stopped watcher takes its socket with it.
        #expect(!FileManager.default.fileExists(atPath: sandbox.storeFile(".contacts/watch.socket").path))
    }

    @Test func aSecondWatcherSaysOneIsRunningAndOnlyPrintsChanges() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let first = try Watcher(sandbox, arguments: [])
        try #require(first.waitUntilReady())
        let second = try Watcher(sandbox, arguments: [])
        try #require(second.waitUntilReady())
        #expect(second.errorsSoFar.contains("Another `contacts watch`"))
        for watcher in [second, first] {
            watcher.process.terminate()
            watcher.process.waitUntilExit()
            #expect(watcher.process.terminationStatus == 0)
        }
    }
}
