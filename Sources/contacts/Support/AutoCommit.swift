import Foundation
import PlainContacts

/// Commits what a command changed in the store to Git, when the global `--commit` flag is
/// given or the store's `store.json` says `"autoCommit": true`.
///
/// The dispatcher calls ``prepare(chain:arguments:context:)`` before running a command and
/// ``commit(context:)`` after it succeeded. The store's files are compared before and after
/// (see ``StoreSnapshot``), so exactly the files this command changed are staged and committed,
/// with a message naming the people and groups changed (see ``StoreCommitMessage``):
/// `contacts: add Katie Bell; edit John Appleseed`. The store's own files (`store.json`,
/// `.gitattributes`, `.gitignore`) go with the commit when they were never committed, so that
/// a clone of the repository is a store. Other uncommitted changes are left alone. Nothing
/// happens outside a Git work tree.
///
/// In a store whose commits are pushed (`"autoPush": true`), the commit is then pushed to the
/// store's remote, merging first when the remote moved, as `contacts serve --push` does; a push
/// that fails is noted, kept for `contacts doctor`, and carried by the next push.
struct AutoCommit: Sendable {
    /// Commands that never commit: they do not change the store, run inside Git, watch other
    /// programs' changes, or change only the device-local `.contacts/` folder.
    static let exempt: Set<String> = [
        "init", "git-setup", "merge-driver", "textconv", "log", "watch", "help", "completion", "access", "user",
    ]

    private let store: URL
    private let explicit: Bool
    private let before: StoreSnapshot

    /// Notes the store's files before a command runs, or `nil` when nothing is to be committed.
    static func prepare(
        chain: [any Command.Type], arguments: ParsedArguments<GlobalOptions>, context: CommandContext
    ) -> AutoCommit? {
        guard let command = chain.first, !exempt.contains(command.name) else { return nil }
        let store = context.storeURL
        let explicit = arguments[\.commit]
        guard explicit || StoreRepository.gitSettings(ofStoreAt: store).autoCommit else { return nil }
        return AutoCommit(store: store, explicit: explicit, before: StoreSnapshot(of: store))
    }

    /// Notes the store's files now, to commit what changes after: what a long-running command
    /// (`serve`) makes for each change it commits.
    init(store: URL, explicit: Bool) {
        self.init(store: store, explicit: explicit, before: StoreSnapshot(of: store))
    }

    private init(store: URL, explicit: Bool, before: StoreSnapshot) {
        self.store = store
        self.explicit = explicit
        self.before = before
    }

    /// Commits the files the command changed. A failing `git commit` is reported but does not
    /// fail the command: its change is saved either way.
    func commit(context: CommandContext) throws(CLIError) {
        try commit(headline: context.commitNote.headline, console: context.console)
    }

    /// Commits the files changed since this value was made, with `headline` (when given) as
    /// the message's first line.
    func commit(headline: String?, console: Console) throws(CLIError) {
        let after = StoreSnapshot(of: store)
        let changed = after.changedPaths(since: before)
        guard !changed.isEmpty else { return }
        guard try GitRunner.isWorkTree(store) else {
            if explicit { console.note("The store is not in a Git repository; nothing was committed.") }
            return
        }
        // `git add` refuses a path that is neither in the work tree nor known to Git (a file
        // created and removed without ever being added), so such paths are left out.
        let tracked = try GitRunner.run(["ls-files", "-z", "--"] + changed, in: store).output
            .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let addable = changed.filter { after.contains($0) || tracked.contains($0) } + (try uncommittedSkeleton(excluding: changed))
        guard !addable.isEmpty else { return }
        let added = try GitRunner.run(["add", "-A", "--"] + addable, in: store)
        guard added.status == 0 else {
            console.error("the change was saved but not committed: \(added.firstError)")
            return
        }
        let staged = try GitRunner.run(
            ["diff", "--cached", "--name-status", "--no-renames", "--relative", "-z", "--"] + addable, in: store)
        let entries = AutoCommit.entries(staged.output)
        guard !entries.isEmpty else { return }
        var message = try StoreCommitMessage.make(entries, contents: contents)
        if let headline {
            message = "contacts: \(headline)\n\n\(message)"
        }
        let committed = try GitRunner.run(["commit", "--quiet", "-m", message, "--"] + entries.map(\.path), in: store)
        if committed.status != 0 {
            console.error("the change was saved but not committed: \(committed.firstError)")
            return
        }
        if StoreRepository.gitSettings(ofStoreAt: store).autoPush { push(console: console) }
    }

    /// Pushes the commits to the store's remote once, merging first when it moved; a failure
    /// is noted on standard error and kept in the store's ``ServePushReport``.
    private func push(console: Console) {
        let push = StorePush(store: store)
        var outcome = push.push()
        if outcome == .rejected {
            do {
                try push.merge()
                outcome = push.push()
            } catch {
                outcome = .failed(error.message)
            }
        }
        let report = ServePushReport(store: store)
        switch outcome {
        case .pushed:
            report.clear()
        case .rejected:
            report.record("the remote moved again during the merge", remote: push.unpushed()?.remote)
            console.note("The change was committed but not pushed: the remote moved again; the next push carries it.")
        case .failed(let reason):
            report.record(reason, remote: push.unpushed()?.remote)
            console.note("The change was committed but not pushed (\(reason)); the next push carries it, and contacts doctor shows what waits.")
        }
    }

    // MARK: Files

    /// The store's own files (`store.json`, `.gitattributes`, `.gitignore`) that exist but are
    /// not in the last commit, as after `contacts init` in a repository that has never
    /// committed them: a clone without them is not a store, so they go with the first commit.
    private func uncommittedSkeleton(excluding changed: [String]) throws(CLIError) -> [String] {
        let skeleton = StoreRepository.skeletonPaths.filter {
            !changed.contains($0) && FileManager.default.fileExists(atPath: store.appending(path: $0).path(percentEncoded: false))
        }
        guard !skeleton.isEmpty else { return [] }
        let listed = try GitRunner.run(["ls-tree", "-z", "--name-only", "HEAD", "--"] + skeleton, in: store)
        // Without a first commit, `ls-tree` fails: nothing is committed yet.
        let committed = listed.status == 0
            ? Set(listed.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }) : []
        return skeleton.filter { !committed.contains($0) }
    }

    /// The entries of `git diff --name-status -z`: a status letter and a path each.
    static func entries(_ output: Data) -> [(status: Character, path: String)] {
        let fields = output.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
        var result: [(Character, String)] = []
        var index = 0
        while index + 1 < fields.count {
            if let letter = fields[index].first { result.append((letter, fields[index + 1])) }
            index += 2
        }
        return result
    }

    /// The bytes of a store file now, or as last committed when it was deleted.
    private func contents(_ path: String, deleted: Bool) throws(CLIError) -> Data? {
        if !deleted, let data = FileManager.default.contents(atPath: store.appending(path: path).path(percentEncoded: false)) {
            return data
        }
        let shown = try GitRunner.run(["show", "HEAD:./" + path], in: store)
        return shown.status == 0 ? shown.output : nil
    }
}
