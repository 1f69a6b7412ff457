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

        /// Waits until the watcher says on standard error that it is watching.
        func waitUntilReady() -> Bool {
            var text = ""
            while !text.contains("Watching") {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { return false }
                text += String(decoding: data, as: UTF8.self)
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
}
