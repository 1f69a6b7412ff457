import Foundation
import Testing
@testable import contacts

/// Whether `program` is on `PATH`.
private func onPath(_ program: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { folder in
        FileManager.default.isExecutableFile(atPath: "\(folder)/\(program)")
    }
}

/// Under CI the linters are installed, and a missing one fails the tests instead of skipping them.
private let lintersRequired = ProcessInfo.processInfo.environment["CI"] != nil

@Suite struct ManualPagesTests {
    @Test func contactsPageListsEveryCommandAndGlobalOption() throws {
        let page = try #require(ManualPages.page(named: "contacts.1")).render()
        for command in CommandTable.commands {
            #expect(page.contains("\\fBcontacts \(ManualPage.escapedText(command.name))\\fR"), "\(command.name) missing")
            #expect(page.contains("contacts\\-\(ManualPage.escapedText(command.name))"), "no reference to the page of \(command.name)")
        }
        for option in GlobalOptions.specs + LeadingOptions.specs {
            #expect(page.contains("\\fB\\-\\-\(ManualPage.escapedText(option.name))\\fR"), "--\(option.name) missing")
        }
        for status in HelpText.exitStatuses {
            #expect(page.contains(".TP\n\\fB\(status.status.rawValue)\\fR\n"))
        }
    }

    @Test func everyCommandPageListsItsOptionsAndSubcommands() throws {
        for command in CommandTable.commands {
            let page = try #require(ManualPages.page(named: ManualPages.pageName(command))).render()
            for option in command.options {
                #expect(page.contains("\\-\\-\(ManualPage.escapedText(option.name))\\fR"), "\(command.name): --\(option.name) missing")
            }
            for subcommand in command.subcommands {
                #expect(page.contains(".SS \"contacts \(command.name) \(ManualPage.escapedText(subcommand.name))"), "\(command.name) \(subcommand.name) missing")
                for option in subcommand.options {
                    #expect(
                        page.contains("\\-\\-\(ManualPage.escapedText(option.name))\\fR"),
                        "\(command.name) \(subcommand.name): --\(option.name) missing")
                }
            }
        }
    }

    @Test func pagesOfServeSyncAndImportShowExamples() throws {
        for name in ["contacts-serve", "contacts-sync", "contacts-import", "contacts"] {
            let page = try #require(ManualPages.page(named: name)).render()
            #expect(page.contains(".SH \"EXAMPLES\""), "\(name) has no examples")
            #expect(page.contains(".SH \"EXIT STATUS\""))
            #expect(page.contains(".SH \"ENVIRONMENT\""))
        }
        #expect(ManualPages.page(named: "contacts-store.5")?.render().contains(".SH \"FILES\"") == true)
    }

    @Test func textThatRoffWouldReadAsARequestIsEscaped() {
        #expect(ManualPage.escapedLine(".gitignore is kept") == "\\&.gitignore is kept")
        #expect(ManualPage.escapedLine("'quoted'") == "\\&'quoted'")
        #expect(ManualPage.escapedText("C:\\dir --json") == "C:\\edir \\-\\-json")
        #expect(ManualPage.quoted("say \"hi\"") == "\"say \\(dqhi\\(dq\"")
        #expect(ManualPage.escapedText("Ｋ…") == "\\[uFF2B]\\[u2026]")
    }

    @Test func discussionIndentedLinesBecomeLiteralBlocks() {
        let blocks = ManualPages.discussionBlocks("Install it:\n  contacts completion bash > f\nthen restart.\n\nMore.")
        #expect(blocks.count == 4)
        guard case let .literal(lines) = blocks[1] else {
            Issue.record("no literal block")
            return
        }
        #expect(lines == ["contacts completion bash > f"])
    }

    @Test func manualCommandListsAndPrintsPages() throws {
        let sandbox = try CLISandbox()
        let list = try sandbox.succeed(["manual"])
        #expect(list.lines == ManualPages.names)
        #expect(list.lines.contains("contacts-serve.1"))
        #expect(list.lines.contains("contacts-store.5"))
        let serve = try sandbox.succeed(["manual", "contacts-serve.1"])
        #expect(serve.stdout.hasPrefix(".TH \"CONTACTS\\-SERVE\" 1 "))
        #expect(try sandbox.succeed(["manual", "contacts-serve"]).stdout == serve.stdout)
        #expect(try sandbox.run(["manual", "contacts-nothing.1"]).status == 66)
    }

    @Test(.enabled(if: onPath("mandoc") || lintersRequired, "mandoc is not installed"))
    func everyPagePassesMandocLint() throws {
        let sandbox = try CLISandbox()
        for name in ManualPages.names {
            let file = sandbox.root.appending(path: name)
            try Data(try sandbox.succeed(["manual", name]).stdout.utf8).write(to: file)
            let lint = try Self.output(of: ["mandoc", "-T", "lint", "-W", "warning", file.path(percentEncoded: false)])
            #expect(lint.status == 0 && lint.text.isEmpty, "\(name): \(lint.text)")
        }
    }

    @Test(.enabled(if: onPath("groff") || lintersRequired, "groff is not installed"))
    func everyPageRendersWithoutGroffWarnings() throws {
        let sandbox = try CLISandbox()
        for name in ManualPages.names {
            let file = sandbox.root.appending(path: name)
            try Data(try sandbox.succeed(["manual", name]).stdout.utf8).write(to: file)
            let render = try Self.output(of: ["groff", "-ww", "-z", "-man", "-Tutf8", file.path(percentEncoded: false)])
            #expect(render.status == 0 && render.text.isEmpty, "\(name): \(render.text)")
        }
    }

    /// The exit status of `arguments` and what it wrote to standard output and error together.
    static func output(of arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
