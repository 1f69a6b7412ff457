import DAVTestSupport
import Foundation
import Glibc
import Testing
@testable import PlainContacts

/// A connected pair of sockets standing in for a terminal: the prompt talks on `prompt`, the
/// test plays the user on `user`.
private struct FakeTerminal: ~Copyable {
    let prompt: Int32
    let user: Int32

    init() throws {
        var descriptors: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0)
        prompt = descriptors[0]
        user = descriptors[1]
    }

    deinit {
        close(prompt)
        close(user)
    }

    /// Types `text` and, if `hangUp`, ends the input.
    func type(_ text: String, hangUp: Bool) throws {
        let bytes = Array(text.utf8)
        try #require(bytes.withUnsafeBytes { write(user, $0.baseAddress, $0.count) } == bytes.count)
        if hangUp { try #require(shutdown(user, Int32(SHUT_WR)) == 0) }
    }

    /// Everything the prompt wrote so far.
    func screen() -> String {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = recv(user, &bytes, bytes.count, Int32(MSG_DONTWAIT))
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
}

@Suite("TerminalAccessPrompt")
struct TerminalAccessPromptTests {
    @Test(arguments: [
        ("y\n", true), ("YES\n", true), ("  yes \n", true), ("Yes\r\n", true),
        ("n\n", false), ("\n", false), ("yeah\n", false), ("sure\n", false),
    ] as [(String, Bool)])
    func replyLineDecidesTheAnswer(reply: String, answer: Bool) throws {
        let terminal = try FakeTerminal()
        try terminal.type(reply, hangUp: false)

        #expect(TerminalAccessPrompt.converse("Allow? [y/N] ", on: terminal.prompt) == answer)
        #expect(terminal.screen() == "Allow? [y/N] ")
    }

    @Test func onlyTheFirstLineIsRead() throws {
        let terminal = try FakeTerminal()
        try terminal.type("no\nyes\n", hangUp: false)

        #expect(TerminalAccessPrompt.converse("Allow? ", on: terminal.prompt) == false)
        #expect(TerminalAccessPrompt.converse("Allow? ", on: terminal.prompt) == true)
    }

    @Test func endOfInputMeansTheUserCouldNotBeAsked() throws {
        let terminal = try FakeTerminal()
        try terminal.type("", hangUp: true)

        #expect(TerminalAccessPrompt.converse("Allow? ", on: terminal.prompt) == nil)
    }

    @Test func lastLineWithoutNewlineStillCounts() throws {
        let terminal = try FakeTerminal()
        try terminal.type("y", hangUp: true)

        #expect(TerminalAccessPrompt.converse("Allow? ", on: terminal.prompt) == true)
    }

    @Test func missingTerminalMeansTheUserCouldNotBeAsked() async throws {
        let temporary = try TemporaryStore()
        let prompt = TerminalAccessPrompt(devicePath: temporary.url.appending(path: "no-tty").path)

        #expect(await prompt.askForAccess(client: "com.example.mailer", store: temporary.storeURL) == nil)
    }

    @Test func questionNamesTheClientAndTheStore() {
        let question = TerminalAccessPrompt.question(client: "com.example.mailer", store: URL(filePath: "/home/kim/book/"))

        #expect(question == "“com.example.mailer” would like to access your contacts in /home/kim/book. Allow? [y/N] ")
    }

    @Test func questionReplacesControlCharacters() {
        let question = TerminalAccessPrompt.question(
            client: "evil\u{1B}[2J", store: URL(filePath: "/home/kim/bo\u{7}ok"))

        #expect(!question.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(question.contains("evil\u{FFFD}[2J"))
    }
}
