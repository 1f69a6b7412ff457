import Foundation
import PlainContacts

/// Measures the peak resident memory of a program run as a child.
///
/// On Linux a child's `ru_maxrss` starts from the high-water mark of the process that spawned
/// it (the mark survives `exec`), so `wait4` on a child of this benchmark, which itself holds a
/// whole store in memory, reports the benchmark's own peak. The probe therefore runs the
/// program under a small intermediary: `/usr/bin/time -f %M` when installed, else this program
/// in its `--time-child` mode, which spawns the program, waits for it with `wait4`, and writes
/// the peak to a file as `time -o` does.
struct PeakMemoryProbe {
    /// The `/usr/bin/time` to use, or `nil` to use this program.
    let timeTool: String?
    /// This program's executable, the intermediary when `/usr/bin/time` is missing.
    let benchExecutable: String
    /// Where the intermediary writes the peak.
    let outputFile: URL

    /// How the peak is measured, for the report.
    var method: String {
        timeTool == nil ? "wait4 `ru_maxrss` via contacts-bench --time-child" : "/usr/bin/time %M"
    }

    /// The peak memory of one run.
    struct Result {
        /// The program's exit status.
        var status: Int32
        /// Its peak resident memory in kilobytes, if the intermediary reported it.
        var kilobytes: Int?
    }

    /// Runs `program` with `arguments` (output discarded) and reports its peak memory.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the intermediary cannot be started.
    func run(_ program: String, _ arguments: [String]) throws -> Result {
        try? FileManager.default.removeItem(at: outputFile)
        let result: ChildProcess.Result
        if let timeTool {
            result = try ChildProcess.run(timeTool, ["-f", "%M", "-o", outputFile.path, program] + arguments, output: .discard)
        } else {
            result = try ChildProcess.run(
                benchExecutable, ["--time-child", outputFile.path, program] + arguments, output: .discard)
        }
        return Result(status: result.status, kilobytes: Self.lastNumber(in: outputFile))
    }

    /// The `--time-child` mode: runs the program (standard output inherited), writes its peak
    /// in kilobytes to `file`, and returns its exit status.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the program cannot be started or the file written.
    static func timeChild(writingTo file: URL, _ program: String, _ arguments: [String]) throws -> Int32 {
        guard let executable = ChildProcess.findExecutable(program) else {
            throw ContactsError(.io, "cannot find the program to run", path: program)
        }
        let result = try ChildProcess.run(executable, arguments, output: .inherit)
        do {
            try Data("\(result.maxResidentKilobytes)\n".utf8).write(to: file)
        } catch {
            throw ContactsError(.io, "cannot write the peak memory", path: file.path, underlying: error)
        }
        return result.status
    }

    /// The number on the last line of a file (`/usr/bin/time` may write a status line first).
    private static func lastNumber(in file: URL) -> Int? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        return text.split(whereSeparator: \.isNewline).last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}
