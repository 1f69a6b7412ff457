import Foundation
import PlainContacts
import PlainContactsDAV

/// `contacts log ID`: the Git history of one person, with readable diffs.
enum LogCommand: Command {
    static let name = "log"
    static let positionals: Positionals = [.one("ID")]
    static let summary = "Show the Git history of one person, newest first, with readable diffs."
    static let discussion = """
        Runs `git log --follow -p` on the person's file with `contacts textconv` as the diff
        converter (whether or not the clone was set up with `contacts git-setup`), so that each
        change reads `job title: Pilot` rather than JSON. Each commit is headed by its hash, its
        date and the person's name as it was in that commit. The store must be in a Git work
        tree. Below the commit's message, each change is said in words, as the history page of
        `contacts serve` says it: `* phone mobile +1 555 0100 → +1 555 0199`.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let text = arguments.positionals[0]
        let book = try context.openBook()
        let person = try PersonLookup.person(id: text, in: book)
        guard let key = person.key else { throw CLIError.noInput("the person is not saved yet") }
        let store = context.storeURL
        guard try GitRunner.isWorkTree(store) else {
            throw CLIError.failure("\(store.path(percentEncoded: false)) is not in a Git repository")
        }
        let path = StoreRepository.path(ofPersonWithKey: key)
        let converter = "diff.contacts.textconv=" + GitRunner.shellQuoted(GitRunner.executablePath) + " textconv"
        let log = try GitRunner.run(
            ["-c", converter, "log", "--follow", "--textconv", "--date=iso", "--format=%x1e%H%x1f%ad%x1f%s", "-p", "--", path],
            in: store)
        guard log.status == 0 else {
            throw CLIError.failure("`git log` failed: \(log.firstError)")
        }
        // The versions of each commit, for the changes in words.
        let versions = try GitStoreHistory().versions(ofFile: path, skipping: 0, limit: nil, inStoreAt: store)
        let byCommit = Dictionary(versions.map { ($0.commit, $0) }, uniquingKeysWith: { first, _ in first })
        var blocks: [String] = []
        for chunk in log.text.split(separator: "\u{1e}") {
            let header = chunk.prefix { $0 != "\n" }.split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
            guard header.count == 3 else { continue }
            let patch = chunk.dropFirst(chunk.prefix { $0 != "\n" }.count).drop { $0 == "\n" }
            let name = try compositeName(commit: header[0], patch: patch, path: path, book: book, store: store)
            var block = "commit \(header[0])\nDate:   \(header[1])\nName:   \(name)\n\n    \(header[2])\n"
            if let version = byCommit[header[0]] {
                let words = PersonChangeWords.lines(from: version.before, to: version.after, path: version.path, format: book.compositeNameFormat)
                if !words.isEmpty { block += "\n" + words.map { "    * \($0)\n" }.joined() }
            }
            if !patch.isEmpty { block += "\n" + patch }
            blocks.append(block.hasSuffix("\n") ? String(block.dropLast()) : block)
        }
        if blocks.isEmpty {
            context.console.note("No commit touches this person yet.")
        } else {
            context.console.print(blocks.joined(separator: "\n\n"))
        }
    }

    /// The person's composite name in the version of `commit` (or, for a commit that deleted
    /// the file, in the version before it).
    private static func compositeName(
        commit: String, patch: Substring, path: String, book: AddressBook, store: URL
    ) throws(CLIError) -> String {
        var paths = ["./" + path]
        if let line = patch.split(separator: "\n").first(where: { $0.hasPrefix("diff --git ") }),
            let range = line.range(of: " b/", options: .backwards)
        {
            paths.insert(String(line[range.upperBound...]), at: 0)
        }
        for revision in [commit, commit + "^"] {
            for candidate in paths {
                let shown = try GitRunner.run(["show", "\(revision):\(candidate)"], in: store)
                guard shown.status == 0,
                    let name = StoreRepository.personName(inVersion: shown.output, path: candidate, format: book.compositeNameFormat)
                else { continue }
                return name ?? "(no name)"
            }
        }
        return "(unknown)"
    }
}
