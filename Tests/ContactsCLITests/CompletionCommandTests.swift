import Foundation
import Testing

@Suite struct CompletionCommandTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func scriptsCoverEveryCommandAndItsOptions(shell: String) throws {
        let sandbox = try CLISandbox()
        let script = try sandbox.succeed(["completion", shell]).stdout
        for word in ["init", "git-setup", "add", "new", "show", "list", "search", "pick", "set", "edit", "rm", "group",
                     "members", "resolve", "access", "grant", "completion"] {
            #expect(script.contains(word), "\(word) missing")
        }
        for option in ["first", "phone", "create-group", "json", "sort", "property", "store", "lock-timeout"] {
            let spelling = shell == "fish" ? "-l \(option)" : "--\(option)"
            #expect(script.contains(spelling), "--\(option) missing")
        }
    }

    @Test(.enabled(if: installed("bash")))
    func theBashScriptParses() throws {
        #expect(try parses(shell: "bash", flags: ["-n"]))
    }

    @Test(.enabled(if: installed("zsh")))
    func theZshScriptParses() throws {
        #expect(try parses(shell: "zsh", flags: ["-n"]))
    }

    @Test(.enabled(if: installed("fish")))
    func theFishScriptParses() throws {
        #expect(try parses(shell: "fish", flags: ["--no-execute"]))
    }

    private func parses(shell: String, flags: [String]) throws -> Bool {
        let sandbox = try CLISandbox()
        let file = sandbox.root.appending(path: "completion.\(shell)")
        try Data(try sandbox.succeed(["completion", shell]).stdout.utf8).write(to: file)
        let status = try ChildProcess.run(
            [shell] + flags + [file.path(percentEncoded: false)], environment: sandbox.baseEnvironment)
        return status == 0
    }

    @Test(.enabled(if: installed("bash")))
    func bashCompletesCommandsSubcommandsAndOptionValues() throws {
        let sandbox = try CLISandbox()
        let file = sandbox.root.appending(path: "completion.bash")
        try Data(try sandbox.succeed(["completion", "bash"]).stdout.utf8).write(to: file)
        let probe = """
            source '\(file.path(percentEncoded: false))'
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _contacts; echo "${COMPREPLY[*]}"; }
            t contacts gr
            t contacts group me
            t contacts --store /tmp list --so
            t contacts list --sort ""
            t contacts completion z
            """
        let outputFile = sandbox.root.appending(path: "probe.txt")
        _ = try ChildProcess.run(
            ["bash", "-c", probe], environment: sandbox.baseEnvironment, output: outputFile.path(percentEncoded: false))
        let output = try String(contentsOf: outputFile, encoding: .utf8)
        #expect(output.split(separator: "\n", omittingEmptySubsequences: false).prefix(5) == [
            "group", "members", "--sort", "first last", "zsh",
        ])
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["completion", "tcsh"]).status == 64)
    }
}

/// Whether a program is on the `PATH`.
func installed(_ program: String) -> Bool {
    ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
    }
}
