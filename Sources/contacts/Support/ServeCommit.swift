import Foundation
import PlainContacts
import Synchronization

/// The commit of one change `contacts serve` saved: exactly the files the change wrote or
/// removed, with the bytes the change left in them, whatever was written since, and a message
/// whose first line names the client (`contacts: serve: PUT by kim with DAVx5/4.4.2`) and whose
/// body names the people and groups changed (``StoreCommitMessage``).
///
/// Commits wait in a ``ServeGitQueue`` while later changes are saved, so a file may hold a later
/// change's bytes by the time its commit is made. The commit is therefore built with Git's
/// plumbing, in an index of its own: the tree of `HEAD`, the change's bytes put in
/// (`hash-object`, `update-index`), `write-tree`, `commit-tree` on `HEAD`, and `update-ref`
/// moving `HEAD` only if no other commit landed meanwhile (else it is built again on that one).
/// The repository's index then takes the committed versions of those files (`reset`), so that
/// `git status` shows only what is not committed yet. Git's hooks do not run, as for any
/// plumbing. The store's own files (`store.json`, `.gitattributes`, `.gitignore`) go with the
/// commit when they were never committed, as ``AutoCommit`` does.
///
/// Run again after a failure, it finishes what is left: a commit made is not made twice.
///
/// ```swift
/// let commit = ServeCommit(store: store, headline: "serve: PUT with DAVx5/4.4.2",
///                          files: [("people/katie-bell-x7k2mq.json", bytes)], explicit: true) { print($0) }
/// try commit.run()
/// ```
final class ServeCommit: ServeGitStep {
    /// How many times a commit is built again on a `HEAD` that moved while it was built.
    static let moveLimit = 5

    /// The store.
    let store: URL
    /// The message's first line, after `contacts: `.
    let headline: String
    /// The files the change wrote (with their bytes) or removed (`nil`), relative to the store.
    let files: [(path: String, data: Data?)]
    /// Whether `--commit` was given: a store outside Git is then noted.
    private let explicit: Bool
    /// Variables Git runs with, besides this process's.
    private let environment: [String: String]
    /// Where notes go.
    private let note: @Sendable (String) -> Void
    /// The paths committed, relative to the repository, once the commit is made (empty when
    /// there was nothing to commit): a later run only brings the index up to date.
    private let committed = Mutex<[String]?>(nil)

    /// The commit of a change's `files` in `store`, with `headline`; Git runs with
    /// `environment` added to this process's.
    init(
        store: URL, headline: String, files: [(path: String, data: Data?)], explicit: Bool,
        environment: [String: String] = [:], note: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.headline = headline
        self.files = files
        self.explicit = explicit
        self.environment = environment
        self.note = note
    }

    var summary: String { "the commit of \"\(headline)\"" }

    /// Makes the commit, unless made, and brings the index up to date.
    ///
    /// - Throws: a ``CLIError`` naming what Git refused, or that Git could not be run.
    func run() throws {
        guard let repository = try Repository(containing: store, environment: environment) else {
            if explicit { note("The store is not in a Git repository; nothing was committed.") }
            return
        }
        let paths: [String]
        if let made = committed.withLock({ $0 }) {
            paths = made
        } else {
            paths = try commit(in: repository)
            committed.withLock { $0 = paths }
        }
        guard !paths.isEmpty else { return }
        try repository.git(["reset", "--quiet", "HEAD", "--"] + paths)
    }

    // MARK: Committing

    /// Commits the files' bytes on top of `HEAD`; gives the paths committed, relative to the
    /// repository (none when `HEAD` already holds what the change left).
    private func commit(in repository: Repository) throws(CLIError) -> [String] {
        for _ in 0..<Self.moveLimit {
            let parent = try repository.head()
            let index = FileManager.default.temporaryDirectory.appending(path: "contacts-index-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: index) }
            let ownIndex = ["GIT_INDEX_FILE": index.path(percentEncoded: false)]
            try repository.git(parent.map { ["read-tree", $0] } ?? ["read-tree", "--empty"], environment: ownIndex)
            let all = files + (try uncommittedSkeleton(in: repository, parent: parent))
            var lines = ""
            var removed: [String] = []
            for (path, data) in all {
                let full = repository.prefix + path
                if let data {
                    let object = try repository.git(["hash-object", "-w", "--stdin", "--path=" + full], input: data).text
                    lines += "100644 \(object.trimmingCharacters(in: .whitespacesAndNewlines))\t\(full)\n"
                } else {
                    removed.append(full)
                }
            }
            if !lines.isEmpty { try repository.git(["update-index", "--add", "--index-info"], input: Data(lines.utf8), environment: ownIndex) }
            if !removed.isEmpty { try repository.git(["update-index", "--force-remove", "--"] + removed, environment: ownIndex) }
            let staged = try repository.git(
                ["diff", "--cached", "--name-status", "--no-renames", "-z"] + (parent.map { [$0] } ?? []) + ["--"]
                    + all.map { repository.prefix + $0.path },
                environment: ownIndex)
            let entries = AutoCommit.entries(staged.output)
            guard !entries.isEmpty else { return [] }
            let message = try self.message(for: entries, in: repository, parent: parent)
            let tree = try repository.git(["write-tree"], environment: ownIndex).text.trimmingCharacters(in: .whitespacesAndNewlines)
            let made = try repository.git(["commit-tree", tree] + (parent.map { ["-p", $0] } ?? []) + ["-F", "-"], input: Data(message.utf8))
            let commit = made.text.trimmingCharacters(in: .whitespacesAndNewlines)
            // Moves HEAD only from `parent`: a commit that landed meanwhile is never undone.
            let moved = try repository.run(["update-ref", "-m", "contacts: \(headline)", "HEAD", commit, parent ?? ""])
            if moved.status == 0 { return entries.map(\.path) }
        }
        throw CLIError.failure("HEAD moved \(Self.moveLimit) times while the commit was made")
    }

    /// The message: the headline, then the people and groups changed.
    private func message(
        for entries: [(status: Character, path: String)], in repository: Repository, parent: String?
    ) throws(CLIError) -> String {
        let relative = entries.map { (status: $0.status, path: String($0.path.dropFirst(repository.prefix.count))) }
        let body = try StoreCommitMessage.make(relative) { (path: String, deleted: Bool) throws(CLIError) -> Data? in
            try contents(of: path, deleted: deleted, in: repository, parent: parent)
        }
        return "contacts: \(headline)\n\n\(body)\n"
    }

    /// The bytes of a store file as the change left it; for a file the change did not write,
    /// as it is now; for a removed one, as last committed.
    private func contents(of path: String, deleted: Bool, in repository: Repository, parent: String?) throws(CLIError) -> Data? {
        if let written = files.first(where: { $0.path == path }), let data = written.data { return data }
        if !deleted, let data = FileManager.default.contents(atPath: store.appending(path: path).path(percentEncoded: false)) {
            return data
        }
        guard let parent else { return nil }
        let shown = try repository.run(["show", "\(parent):\(repository.prefix + path)"])
        return shown.status == 0 ? shown.output : nil
    }

    /// The store's own files that exist but are not in `parent`, with their bytes, unless the
    /// change wrote them: a clone without them is not a store, so they go with the first commit.
    private func uncommittedSkeleton(in repository: Repository, parent: String?) throws(CLIError) -> [(path: String, data: Data?)] {
        let written = Set(files.map(\.path))
        let present = StoreRepository.skeletonPaths.filter { path in
            !written.contains(path) && FileManager.default.fileExists(atPath: store.appending(path: path).path(percentEncoded: false))
        }
        guard !present.isEmpty else { return [] }
        var committed = Set<String>()
        if let parent {
            let listed = try repository.git(["ls-tree", "-z", "--name-only", parent, "--"] + present.map { repository.prefix + $0 })
            committed = Set(listed.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        }
        return present.filter { !committed.contains(repository.prefix + $0) }.compactMap { path in
            FileManager.default.contents(atPath: store.appending(path: path).path(percentEncoded: false)).map { (path, $0) }
        }
    }
}

/// The Git work tree a store is in: its top folder, and the store's folder relative to it.
private struct Repository {
    /// The work tree's top folder.
    var top: URL
    /// The store's folder relative to `top`, ending in `/`; empty when the store is the top.
    var prefix: String
    /// Variables Git runs with, besides this process's.
    var environment: [String: String]

    /// The work tree holding `store`; `nil` when it is in none.
    ///
    /// - Throws: a ``CLIError`` when Git fails in a folder that is in a repository (a `.git`
    ///   is there or above), so that the commit is tried again rather than dropped.
    init?(containing store: URL, environment: [String: String]) throws(CLIError) {
        self.environment = environment
        let found = try GitRunner.run(
            ["rev-parse", "--is-inside-work-tree", "--show-toplevel", "--show-prefix"], in: store, environment: environment)
        let lines = found.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard found.status == 0, lines.count >= 2, lines[0] == "true" else {
            if Self.hasGitFolder(above: store) {
                throw CLIError.failure("Git cannot read the repository: \(found.firstError)")
            }
            return nil
        }
        top = URL(filePath: lines[1], directoryHint: .isDirectory)
        prefix = lines.count > 2 ? lines[2] : ""
    }

    /// Whether `.git` is in the folder or one above it.
    private static func hasGitFolder(above folder: URL) -> Bool {
        var current = folder.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: current.appending(path: ".git").path(percentEncoded: false)) { return true }
            let parent = current.deletingLastPathComponent()
            if parent.path(percentEncoded: false) == current.path(percentEncoded: false) { return false }
            current = parent
        }
    }

    /// The commit `HEAD` names; `nil` before the first commit.
    func head() throws(CLIError) -> String? {
        let result = try run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])
        guard result.status == 0 else {
            // Before the first commit `HEAD` names a branch without commits.
            let unborn = try run(["symbolic-ref", "--quiet", "HEAD"])
            guard unborn.status == 0 else { throw CLIError.failure("Git cannot read HEAD: \(result.firstError)") }
            return nil
        }
        return result.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs Git in the top folder, whatever its exit status.
    ///
    /// - Throws: a ``CLIError`` when Git cannot be run.
    func run(_ arguments: [String]) throws(CLIError) -> GitRunner.Result {
        try GitRunner.run(arguments, in: top, environment: environment)
    }

    /// Runs Git in the top folder, with `added` to its environment.
    ///
    /// - Throws: a ``CLIError`` with Git's first error line when it fails.
    @discardableResult
    func git(_ arguments: [String], input: Data? = nil, environment added: [String: String] = [:]) throws(CLIError) -> GitRunner.Result {
        let result = try GitRunner.run(arguments, in: top, input: input, environment: environment.merging(added) { _, new in new })
        guard result.status == 0 else {
            throw CLIError.failure("git \(arguments.first ?? ""): \(result.firstError)")
        }
        return result
    }
}
