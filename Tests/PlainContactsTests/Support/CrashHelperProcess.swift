import DAVTestSupport
import Foundation
import Glibc
import Testing

@testable import PlainContacts

/// One running `plaincontacts-crash-helper`, started with a subcommand and its operands, whose
/// standard output the test reads line by line.
final class CrashHelperProcess {
    let process = Process()
    private let output = Pipe()
    private var buffered = Data()
    private var reachedEnd = false

    /// Starts the helper; with `faultPoint`, every commit it makes kills it at that point.
    init(_ arguments: [String], faultPoint: FaultInjection.Point? = nil) throws {
        process.executableURL = try crashHelperExecutable()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PLAINCONTACTS_FAULT_POINT"] = faultPoint?.rawValue
        process.environment = environment
        process.standardOutput = output
        try process.run()
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Blocks until the helper prints `line`; `false` when its output ends first.
    @discardableResult
    func waitForLine(_ line: String) -> Bool {
        while !lines.contains(line) {
            guard !reachedEnd else { return false }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { reachedEnd = true }
            buffered.append(chunk)
        }
        return true
    }

    /// Kills the helper with SIGKILL (harmless when it has already exited).
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// Reads the rest of the output and waits for the helper to end.
    @discardableResult
    func finish() -> (reason: Process.TerminationReason, status: Int32) {
        if !reachedEnd {
            buffered.append(output.fileHandleForReading.readDataToEndOfFile())
            reachedEnd = true
        }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }

    /// The complete lines printed so far.
    var lines: [String] {
        String(decoding: buffered, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
