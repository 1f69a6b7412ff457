import Foundation
import Glibc
import PlainContacts

/// `contacts textconv FILE`: a store file as readable text, for `git diff` and `git log -p`.
enum TextconvCommand: Command {
    static let name = "textconv"
    static let positionals: Positionals = [.one("FILE")]
    static let summary = "Print a store file as a readable card (Git's diff text converter)."
    static let discussion = """
        Git runs this as `contacts textconv FILE` for record files once `contacts git-setup` has
        configured the clone, so that diffs read `job title: Pilot` instead of JSON. A person
        becomes its name, then one `label: value` line per property; a group `Group: NAME`; a
        membership file its keys. A file that cannot be read is printed unchanged.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let path = arguments.positionals[0]
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.noInput("cannot read \(path)")
        }
        FileDescriptorWriter.writeAll(Array(RecordTextView.render(data, path: path).utf8), to: STDOUT_FILENO)
    }
}
