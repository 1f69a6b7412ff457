import Foundation
import PlainContacts

/// The Git side of a store: `git init` and this clone's merge driver and diff helper.
enum GitSetup {
    /// The `git config` settings that make Git merge and diff records with `contacts`.
    ///
    /// A record's file is never renamed (its key is fixed for its life), so merges look for no
    /// renames: Git would otherwise take a removed person and a new, similar small file for a
    /// rename, and a removal on one side for a rename/delete conflict. `git pull` merges with
    /// the `recursive` strategy, which honours `merge.renames` (Git 2.39's default `ort`
    /// detects renames regardless; later Git versions run `ort` for `recursive`).
    static let settings: [(key: String, value: String)] = [
        ("merge.contacts.name", "PlainContacts record merge"),
        ("merge.contacts.driver", "contacts merge-driver %O %A %B %P"),
        ("diff.contacts.textconv", "contacts textconv"),
        ("merge.renames", "false"),
        ("pull.twohead", "recursive"),
    ]

    /// Whether `folder` is inside a Git work tree.
    ///
    /// - Throws: exit status 1 when Git is not installed.
    static func isRepository(_ folder: URL) throws(CLIError) -> Bool {
        try git(["rev-parse", "--is-inside-work-tree"], in: folder) == 0
    }

    /// Runs `git init` in `folder`.
    static func initialize(_ folder: URL) throws(CLIError) {
        guard try git(["init", "--quiet"], in: folder) == 0 else {
            throw CLIError.failure("`git init` failed in \(folder.path(percentEncoded: false).withoutTrailingSlash)")
        }
    }

    /// Writes the merge driver and diff helper settings into the repository's configuration.
    static func configure(_ folder: URL) throws(CLIError) {
        for setting in settings {
            guard try git(["config", setting.key, setting.value], in: folder) == 0 else {
                throw CLIError.failure("`git config \(setting.key)` failed in \(folder.path(percentEncoded: false).withoutTrailingSlash)")
            }
        }
    }

    /// What ``commitSkeleton(_:)`` did.
    enum SkeletonCommit: Equatable {
        /// The store's own files are committed.
        case committed
        /// Git has no identity to commit with (`user.name`, `user.email`).
        case noIdentity
        /// `git add` or `git commit` failed; the line where Git says why.
        case failed(String)
    }

    /// Commits the store's own files (and only them) as `contacts: create the store`.
    static func commitSkeleton(_ store: URL) throws(CLIError) -> SkeletonCommit {
        let added = try GitRunner.run(["add", "--"] + StoreRepository.skeletonPaths, in: store)
        guard added.status == 0 else { return .failed(added.firstError) }
        let committed = try GitRunner.run(["commit", "--quiet", "-m", "contacts: create the store", "--"] + StoreRepository.skeletonPaths, in: store)
        guard committed.status != 0 else { return .committed }
        for variable in ["GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"] where try GitRunner.run(["var", variable], in: store).status != 0 {
            return .noIdentity
        }
        return .failed(committed.errors.split(separator: "\n").last.map(String.init) ?? committed.firstError)
    }

    /// Brings the store's `.gitattributes` up to date (see `StoreRepository.updateGitattributes`),
    /// saying what it did; for a file edited by hand it prints the lines to merge in.
    static func updateAttributes(_ store: URL, console: Console) throws {
        switch try StoreRepository.updateGitattributes(inStoreAt: store) {
        case .current:
            break
        case .written:
            console.print("Updated .gitattributes: membership files and store.json now merge with `contacts` too")
        case .edited(let expected):
            console.note(
                ".gitattributes was edited by hand and is kept; for merges that keep removals it should hold:\n"
                    + expected)
        }
    }

    private static func git(_ arguments: [String], in folder: URL) throws(CLIError) -> Int32 {
        let status = Subprocess.run(["git", "-C", folder.path(percentEncoded: false)] + arguments, output: .discard)
        guard let status, status != 127 else {
            throw CLIError.failure("Git is not installed (no `git` on PATH)")
        }
        return status
    }
}
