import Foundation
import Testing

@Suite struct CompletionCommandTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func scriptsCoverEveryCommandAndItsOptions(shell: String) throws {
        let sandbox = try CLISandbox()
        let offered = Self.offeredWords(in: try sandbox.succeed(["completion", shell]).stdout, shell: shell)
        for word in ["init", "git-setup", "add", "new", "show", "list", "search", "email", "pick", "set", "edit", "rm", "group",
                     "members", "resolve", "access", "grant", "completion"] {
            #expect(offered.commands.contains(word), "\(word) missing")
        }
        for option in ["first", "phone", "create-group", "json", "sort", "no-header", "property", "store", "lock-timeout"] {
            #expect(offered.options.contains(option), "--\(option) missing")
        }
    }

    /// The command words and option names (without dashes) a completion script offers, each
    /// whole: a word that only appears inside another (`set` in `reset`, `--sort` in
    /// `--sort-by`) or in a description does not count.
    static func offeredWords(in script: String, shell: String) -> (commands: Set<String>, options: Set<String>) {
        func captures(_ pattern: Regex<(Substring, Substring)>) -> [String] {
            script.matches(of: pattern.anchorsMatchLineEndings()).map { String($0.output.1) }
        }
        switch shell {
        case "bash":
            // `words="..."` lists what is offered; `name)` labels the commands and subcommands.
            let offered = captures(/words="([^"]*)"/).flatMap { $0.split(separator: " ").map(String.init) }
            let labels = captures(/^\s+([a-z][a-z0-9-]*)\)/)
            return (Set(offered.filter { !$0.hasPrefix("-") } + labels),
                    Set(offered.filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }))
        case "zsh":
            // `'name:description'` entries and `'--name[description]'` specifications.
            return (Set(captures(/'([a-z][a-z0-9-]*):/)), Set(captures(/--([a-z][a-z0-9-]*)\[/)))
        default:
            // `complete ... -a name` and `complete ... -l name`.
            return (Set(captures(/\s-a ([a-z][a-z0-9-]*)(?= |$)/)), Set(captures(/\s-l ([a-z][a-z0-9-]*)(?= |$)/)))
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
