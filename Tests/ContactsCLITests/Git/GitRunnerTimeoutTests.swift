import Foundation
import Testing
@testable import contacts

/// A Git run given a timeout is killed when it outlasts it, and says so.
@Suite struct GitRunnerTimeoutTests {
    @Test func aGitThatHangsIsKilledAtItsTimeoutWithWhatItStarted() throws {
        let sandbox = try CLISandbox()
        let marker = sandbox.root.appending(path: "survived").path(percentEncoded: false)
        // The alias's shell and its sleep, holding Git's output, are killed with Git: had
        // the sleep survived, the run would wait for it and the marker would be written.
        let hung = try GitRunner.run(
            ["-c", "alias.hang=!sleep 30; touch '\(marker)'", "hang"], in: sandbox.root, timeout: .milliseconds(200))
        #expect(hung.timedOut)
        #expect(hung.status != 0)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func aGitThatFinishesInTimeIsNotMarked() throws {
        let sandbox = try CLISandbox()
        let version = try GitRunner.run(["--version"], in: sandbox.root, timeout: .seconds(60))
        #expect(!version.timedOut)
        #expect(version.status == 0)
    }
}
