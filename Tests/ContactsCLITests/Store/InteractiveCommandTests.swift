import Foundation
import Testing

@Suite struct InteractiveCommandTests {
    @Test(arguments: [["pick"], ["pick", "--property", "phone"], ["new"], ["new", "--group", "Friends"]])
    func interactiveCommandsNeedATerminal(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let result = try sandbox.run(arguments, input: "Kim\nLee\n\n\n\n\n\n\n\ny\n")
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(try sandbox.snapshot() == before)
    }

    @Test func pickRefusesAnUnknownProperty() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.run(["pick", "--property", "fax"]).status == 64)
    }
}

/// `pick`, `new` and `edit` in a real terminal, driven through tmux.
@Suite(.serialized, .enabled(if: tmuxAvailable))
struct TerminalTests {
    private func sandboxWithPeople() throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell", "--phone", "mobile:111"])
        try sandbox.add(["--first", "Ada", "--last", "Lovelace", "--phone", "home:222", "--phone", "work:333"])
        try sandbox.add(["--first", "John", "--last", "Appleseed"])
        return sandbox
    }

    @Test func pickPrintsTheChosenRecordIDAfterTypingToFilter() throws {
        let sandbox = try sandboxWithPeople()
        let session = try TmuxSession(sandbox: sandbox, arguments: ["pick"])
        try session.waitForScreen(containing: "John Appleseed")
        try session.type("lov")
        try session.waitForScreen(containing: "Search: lov")
        #expect(!(try session.screen().contains("Katie Bell")))
        try session.press("Enter")
        let outcome = try session.waitForExit()
        #expect(outcome.status == 0)
        #expect(outcome.output == "2\n")
    }

    @Test func arrowsMoveAndDigitsChoose() throws {
        let sandbox = try sandboxWithPeople()
        let down = try TmuxSession(sandbox: sandbox, arguments: ["pick"])
        try down.waitForScreen(containing: "John Appleseed")
        try down.press("Down", "Down", "Up", "Enter")
        #expect(try down.waitForExit().output == "1\n")

        let sandbox2 = try sandboxWithPeople()
        let digit = try TmuxSession(sandbox: sandbox2, arguments: ["pick"])
        try digit.waitForScreen(containing: "John Appleseed")
        try digit.type("3")
        #expect(try digit.waitForExit().output == "2\n")
    }

    @Test func pickWithAPropertyPrintsTheChosenValue() throws {
        let sandbox = try sandboxWithPeople()
        let session = try TmuxSession(sandbox: sandbox, arguments: ["pick", "--query", "ada", "--property", "phone"])
        try session.waitForScreen(containing: "Ada Lovelace")
        try session.press("Enter")
        try session.waitForScreen(containing: "work")
        try session.press("Down", "Enter")
        let outcome = try session.waitForExit()
        #expect(outcome.status == 0)
        #expect(outcome.output == "333\n")
    }

    @Test func escapeCancelsWithExit1AndPrintsNothing() throws {
        let sandbox = try sandboxWithPeople()
        let session = try TmuxSession(sandbox: sandbox, arguments: ["pick"])
        try session.waitForScreen(containing: "John Appleseed")
        try session.press("Escape")
        let outcome = try session.waitForExit()
        #expect(outcome.status == 1)
        #expect(outcome.output.isEmpty)
    }

    @Test func newAsksFieldByFieldAndSavesAfterTheSummary() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.succeed(["group", "create", "Friends"])
        let session = try TmuxSession(sandbox: sandbox, arguments: ["new", "--group", "Friends"])
        let answers: [(prompt: String, answer: String)] = [
            ("First name:", "Grace"), ("Last name:", "Hopper"), ("Organization:", "Navy"), ("Job title:", ""),
            ("Phone:", "mobile:+1 555 0199"), ("Another phone:", ""), ("Email:", "grace@example.mil"),
            ("Another email:", ""), ("Birthday", "1906-12-09"), ("Note:", ""),
        ]
        for (prompt, answer) in answers {
            try session.waitForScreen(containing: prompt)
            try session.type(answer)
            try session.press("Enter")
        }
        try session.waitForScreen(containing: "Save? [Y/n]")
        #expect(try session.screen().contains("Grace Hopper"))
        try session.press("Enter")
        let outcome = try session.waitForExit()
        #expect(outcome.status == 0)
        let id = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let json = try sandbox.json(id)
        #expect(json["lastName"] as? String == "Hopper")
        #expect(json["birthday"] as? String == "1906-12-09")
        #expect(json["groups"] as? [String] == ["Friends"])
        #expect((json["phones"] as? [[String: Any]])?.first?["label"] as? String == "mobile")
    }

    @Test func answeringNoToSaveSavesNothing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let session = try TmuxSession(sandbox: sandbox, arguments: ["new"])
        try session.waitForScreen(containing: "First name:")
        try session.type("Kim")
        try session.press("Enter")
        for prompt in ["Last name:", "Organization:", "Job title:", "Phone:", "Email:", "Birthday", "Note:"] {
            try session.waitForScreen(containing: prompt)
            try session.press("Enter")
        }
        try session.waitForScreen(containing: "Save? [Y/n]")
        try session.type("n")
        try session.press("Enter")
        #expect(try session.waitForExit().status == 1)
        #expect(try sandbox.storeFiles(in: "people").isEmpty)
    }

    @Test func editOnATerminalOffersToEditAgainOnTheSameText() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let marker = sandbox.root.appending(path: "edited-once").path(percentEncoded: false)
        let editor = try sandbox.script("editor.sh", """
            if [ -e '\(marker)' ]; then sed -i 's/"Kim" oops/"Kimberly"/' "$1"; else touch '\(marker)'; sed -i 's/"Kim"/"Kim" oops/' "$1"; fi
            """)
        let session = try TmuxSession(sandbox: sandbox, arguments: ["edit", id], environment: ["EDITOR": editor])
        try session.waitForScreen(containing: "Edit again? [Y/n]")
        try session.press("Enter")
        let outcome = try session.waitForExit()
        #expect(outcome.status == 0)
        #expect(try sandbox.json(id)["firstName"] as? String == "Kimberly")
    }
}
