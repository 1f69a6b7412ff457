import Foundation
import Testing
@testable import contacts

/// The README's table of commands names every command `contacts` has, and no other, so that a
/// command added or removed cannot leave the table behind.
@Suite struct ReadmeCommandTableTests {
    /// The package's README, found from this file's place in `Tests/ContactsCLITests/Manual`.
    private static let readme = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "README.md")

    /// The command names in backquotes in the rows of the table headed `| to | commands |`.
    private static func tableCommands() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| to | commands |") }) else { return [] }
        var names: [String] = []
        for row in lines[(header + 2)...] {
            guard row.hasPrefix("|"), let cell = row.split(separator: "|").last else { break }
            let pieces = cell.split(separator: "`", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() where index % 2 == 1 {
                names.append(String(piece))
            }
        }
        return names
    }

    @Test func theTableNamesEveryCommandOnce() throws {
        let listed = try Self.tableCommands()
        #expect(!listed.isEmpty, "no command table in README.md")
        let commands = CommandTable.commands.map { $0.name }
        #expect(listed.sorted() == commands.sorted())
        #expect(Set(listed).count == listed.count, "a command is listed twice: \(listed)")
    }
}
