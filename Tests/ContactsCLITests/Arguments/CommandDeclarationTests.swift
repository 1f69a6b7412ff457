import Foundation
import Testing
@testable import contacts

/// Every command's help, parser and completion scripts come from its declarations: what help
/// lists is exactly what the parser accepts, and completion offers it.
@Suite struct CommandDeclarationTests {
    /// The words that run each command that does not dispatch: `["group", "members"]`.
    static let commandPaths: [[String]] = chains(of: CommandTable.commands, parent: [])
        .map { chain in chain.map { $0.name } }

    private static func chains(of commands: [any Command.Type], parent: [any Command.Type]) -> [[any Command.Type]] {
        commands.flatMap { command in
            command.subcommands.isEmpty
                ? [parent + [command]] : chains(of: command.subcommands, parent: parent + [command])
        }
    }

    /// The options the help of `path` lists, by name, and `--help` exits 0.
    private static func optionsListedInHelp(_ path: [String], sandbox: CLISandbox) throws -> [String] {
        let result = try sandbox.run(path + ["--help"])
        #expect(result.status == 0)
        return result.stdout.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^  (?:-[a-z], )?--([a-z][a-z0-9-]*)/).map { String($0.output.1) }
        }
    }

    @Test(arguments: commandPaths)
    func helpListsExactlyTheOptionsTheParserAccepts(path: [String]) throws {
        let sandbox = try CLISandbox()
        let command = try CommandPath.command(path)
        let listed = try Self.optionsListedInHelp(path, sandbox: sandbox)
        let declared = command.options + GlobalOptions.specs
        #expect(Set(listed) == Set(declared.map(\.name)))
        #expect(listed.count == declared.count)
        for option in declared {
            let words = ["--\(option.name)"] + (option.takesValue ? ["x"] : [])
            #expect(try sandbox.run(path + words + ["--help"]).status == 0, "--\(option.name) refused")
        }
        #expect(try sandbox.run(path + ["--frobnicate", "--help"]).status == 64)
    }

    @Test(arguments: commandPaths)
    func theUsageLineShowsThePositionalArgumentsAndTheOptions(path: [String]) throws {
        let sandbox = try CLISandbox()
        let command = try CommandPath.command(path)
        let usage = try #require(try sandbox.run(path + ["--help"]).lines.first)
        for argument in command.positionals.arguments {
            #expect(usage.contains(argument.name), "\(argument.name) missing")
        }
        if command.options.count > command.synopsisOptionLimit {
            #expect(usage.hasSuffix(" [options]"))
        } else {
            for option in command.options {
                let written = option.shortName.map { "-\($0)" } ?? "--\(option.name)"
                #expect(usage.contains(written), "\(written) missing")
            }
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsOfferEveryOptionOfEveryCommand(shell: String) throws {
        let sandbox = try CLISandbox()
        let script = try sandbox.succeed(["completion", shell]).stdout
        let lines = script.split(separator: "\n").map(String.init)
        for path in Self.commandPaths {
            let command = try CommandPath.command(path)
            for option in command.options {
                #expect(
                    lines.contains { Self.offers($0, option: option.name, forCommand: path, shell: shell) },
                    "\(shell): --\(option.name) of \(path.joined(separator: " ")) missing")
            }
        }
        let offered = CompletionCommandTests.offeredWords(in: script, shell: shell).options
        for option in GlobalOptions.specs + LeadingOptions.specs {
            #expect(offered.contains(option.name), "\(shell): --\(option.name) missing")
        }
    }

    /// Whether a line of a completion script offers `--option` for the command `path`.
    private static func offers(_ line: String, option: String, forCommand path: [String], shell: String) -> Bool {
        let name = path.last ?? ""
        let words = line.split { " \"'[(*".contains($0) }.map(String.init)
        let offersOption = words.contains("--\(option)")
            || zip(words, words.dropFirst()).contains { $0 == "-l" && $1 == option }
        switch shell {
        case "bash": return offersOption && line.trimmingCharacters(in: .whitespaces).hasPrefix("\(name)) words=")
        case "zsh": return offersOption && line.trimmingCharacters(in: .whitespaces).hasPrefix("\(name)) _arguments")
        default: return offersOption && line.contains("'__contacts_in \(path.joined(separator: " "))'")
        }
    }

    @Test(arguments: commandPaths)
    func noTwoOptionsOfACommandShareAName(path: [String]) throws {
        let options = try CommandPath.command(path).options + GlobalOptions.specs
        #expect(Set(options.map(\.name)).count == options.count)
        let shortNames = options.compactMap(\.shortName) + ["h"]
        #expect(Set(shortNames).count == shortNames.count)
    }

    @Test(arguments: commandPaths)
    func everyStoredPropertyOfAnOptionGroupIsADeclaration(path: [String]) throws {
        func properties<C: Command>(_ command: C.Type) -> [Any] {
            Mirror(reflecting: C.Options()).children.map(\.value)
        }
        let command = try CommandPath.command(path)
        let values = properties(command)
        #expect(values.allSatisfy { $0 is any OptionDeclaration })
        #expect(values.count == command.options.count)
    }
}
