#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the web pages read a store's history: the commits that changed a record file, with
/// the file's bytes before and after each. The server declares it; `contacts serve`
/// implements it with Git (as it commits each change), and a server without it shows no
/// history.
///
/// ```swift
/// let versions = try history.versions(ofFile: "people/katie-bell-9dw42k.json", inStoreAt: store)
/// versions.first?.headline   // "contacts: web: edit Katie Bell by kim"
/// ```
package protocol StoreHistory: Sendable {
    /// The commits that changed the file at `path` (relative to the store at `store`), newest
    /// first, leaving out the `skipping` newest, at most `limit` (`nil`: all the others). A
    /// merge commit is among them when its file differs from the file of each of its parents
    /// (what the merge driver settled), as a version with ``StoreHistoryVersion/isMerge`` whose
    /// ``StoreHistoryVersion/before`` is the first parent's file; a merge that took one side's
    /// file as it was is not.
    ///
    /// ```swift
    /// let older = try history.versions(ofFile: path, skipping: 50, limit: 51, inStoreAt: store)
    /// ```
    ///
    /// - Throws: ``StoreHistoryUnavailable`` when the store has no history (it is not in a Git
    ///   work tree) or it cannot be read.
    func versions(ofFile path: String, skipping: Int, limit: Int?, inStoreAt store: URL) throws -> [StoreHistoryVersion]

    /// The commits that removed a file of the folder `folder` (such as `people`) of the store at
    /// `store` that is not there now, the newest removal of each file, newest first, at most
    /// ``StoreHistoryVersion/limit``; each version's ``StoreHistoryVersion/before`` is the
    /// file's last version.
    ///
    /// - Throws: ``StoreHistoryUnavailable`` as ``versions(ofFile:skipping:limit:inStoreAt:)``.
    func removedFiles(inFolder folder: String, inStoreAt store: URL) throws -> [StoreHistoryVersion]

    /// The bytes of the files at `paths` (relative to the store at `store`), and of every file
    /// inside a folder one of them names, as the commit `commit` left them, or with
    /// `beforeCommit`, as they were just before it (in its first parent): what goes with a
    /// version of a record (its photo, the group membership files) for a restore. A file that
    /// was not there is left out.
    ///
    /// ```swift
    /// let files = try history.files(
    ///     atPaths: ["people/katie-bell-9dw42k.jpg", "groups"], commit: version.commit, beforeCommit: true, inStoreAt: store)
    /// ```
    ///
    /// - Throws: ``StoreHistoryUnavailable`` as ``versions(ofFile:skipping:limit:inStoreAt:)``, and when there is
    ///   no such commit.
    func files(atPaths paths: [String], commit: String, beforeCommit: Bool, inStoreAt store: URL) throws -> [String: Data]
}

extension StoreHistory {
    /// The newest versions of the file at `path`, at most ``StoreHistoryVersion/limit``: the
    /// first page of ``versions(ofFile:skipping:limit:inStoreAt:)``.
    ///
    /// - Throws: as ``versions(ofFile:skipping:limit:inStoreAt:)``.
    package func versions(ofFile path: String, inStoreAt store: URL) throws -> [StoreHistoryVersion] {
        try versions(ofFile: path, skipping: 0, limit: StoreHistoryVersion.limit, inStoreAt: store)
    }
}

/// The history cannot be read: the store is not kept in Git, or Git failed.
package struct StoreHistoryUnavailable: Error, Sendable, Hashable {
    /// Why, without personal data: `the store is not in a Git work tree`.
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }
}

/// One commit's change to a record file.
package struct StoreHistoryVersion: Sendable, Hashable {
    /// The most versions a page of history shows.
    package static let limit = 50

    /// The commit's hash.
    package var commit: String
    /// When the commit was made (its author date).
    package var date: Date
    /// The commit's author.
    package var author: String
    /// The commit message's first line (`contacts: web: edit Katie Bell by kim`).
    package var headline: String
    /// The file's path in this commit, relative to the store.
    package var path: String
    /// The file's bytes before the commit; `nil` when the commit added it.
    package var before: Data?
    /// The file's bytes after the commit; `nil` when the commit removed it.
    package var after: Data?
    /// Whether the commit is a merge whose file differs from each parent's: what the merge
    /// driver settled; ``before`` is then the first parent's file.
    package var isMerge: Bool

    package init(
        commit: String, date: Date, author: String, headline: String, path: String, before: Data?, after: Data?, isMerge: Bool = false
    ) {
        self.commit = commit
        self.date = date
        self.author = author
        self.headline = headline
        self.path = path
        self.before = before
        self.after = after
        self.isMerge = isMerge
    }

    /// Who made the change: the user a server's headline names (`… by kim`: the server
    /// commits as itself, for its users), else the commit's author.
    package var who: String {
        guard source == "web pages" || source.hasPrefix("CardDAV") else { return author }
        var rest = Substring(headline)
        if let with = rest.range(of: " with ", options: .backwards), source.hasPrefix("CardDAV ") { rest = rest[..<with.lowerBound] }
        guard let by = rest.range(of: " by ", options: .backwards) else { return author }
        let user = rest[by.upperBound...]
        return user.isEmpty || user.contains(" ") ? author : String(user)
    }

    /// The client or command that made the change, read from the headline the committers
    /// write: `web pages` (`contacts: web: …`), `CardDAV` or `CardDAV (DAVx5/4.4.2)`
    /// (`contacts: serve: PUT … with DAVx5/4.4.2`), `contacts command` for the commits of the
    /// `contacts` command (`contacts: edit …`), `Git` for any other commit.
    package var source: String {
        guard headline.hasPrefix("contacts: ") else { return "Git" }
        let rest = headline.dropFirst("contacts: ".count)
        let first = rest.prefix { $0 != " " && $0 != ":" }
        let tagged = rest.prefix { $0 != ":" }
        // "web: …", "web family: …", "serve: …", "serve family: …".
        if first == "web", tagged.split(separator: " ").count <= 2, rest.contains(":") { return "web pages" }
        if first == "serve", tagged.split(separator: " ").count <= 2, rest.contains(":") {
            guard let range = rest.range(of: " with ", options: .backwards) else { return "CardDAV" }
            return "CardDAV (\(rest[range.upperBound...]))"
        }
        return "contacts command"
    }
}
