/// What one run of `contacts` did.
struct CLIResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The most memory the run held at once, in kilobytes (0 where it was not measured).
    var peakKilobytes = 0

    /// The output lines, without the final empty one.
    var lines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    var description: String { "status \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}
