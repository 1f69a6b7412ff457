import Foundation
import Glibc
import Testing
@testable import contacts

/// The log lines of `contacts serve`: timed on a terminal, with a priority for the journal.
@Suite struct JournalStreamTests {
    @Test func withoutTheJournalALineStartsWithTheTime() {
        let stream = JournalStream(environment: [:])
        #expect(!stream.isJournal)
        let line = stream.line("GET / 207 3ms")
        #expect(line.hasSuffix(" GET / 207 3ms"))
        #expect(line.first?.isNumber == true)
    }

    @Test func theJournalsStreamGetsAPriorityInsteadOfTheTime() {
        var status = stat()
        #expect(fstat(STDERR_FILENO, &status) == 0)
        let stream = JournalStream(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"])
        #expect(stream.isJournal)
        #expect(stream.line("stopped") == "<6>stopped")
    }

    @Test func aVariableNamingAnotherStreamIsIgnored() {
        #expect(!JournalStream(environment: ["JOURNAL_STREAM": "1:2"]).isJournal)
        #expect(!JournalStream(environment: ["JOURNAL_STREAM": "garbage"]).isJournal)
    }
}
