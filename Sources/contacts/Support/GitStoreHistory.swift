import Foundation
import PlainContactsDAV

/// A store's history read from Git: what the web pages of `contacts serve` show (a person's
/// versions, the people removed) and what `contacts log` says of each commit in words.
///
/// Two runs of Git per question, whatever the number of commits or files: `git log --raw` (or,
/// for the files of one commit, `git ls-tree`) names the blobs, then `git cat-file --batch`
/// reads them all.
///
/// ```swift
/// let versions = try GitStoreHistory().versions(ofFile: "people/katie-bell-9dw42k.json", inStoreAt: store)
/// ```
struct GitStoreHistory: StoreHistory {
    /// The fields of a commit's header line, separated by `\u{1f}`, each header after `\u{1e}`.
    private static let format = "--format=%x1e%H%x1f%at%x1f%an%x1f%s"

    func versions(ofFile path: String, skipping: Int, limit: Int?, inStoreAt store: URL) throws -> [StoreHistoryVersion] {
        // `--cc` gives a merge whose file differs from every parent's a combined line; a merge
        // that took one side's file is left out by Git's history simplification. `--skip` and
        // `--max-count` count the commits `--follow` leaves out, so the page is cut here, and
        // only its blobs are read.
        let changes = try log(["--follow", "--cc", "--", path], in: store).dropFirst(max(0, skipping))
        return try versions(of: Array(limit.map { changes.prefix(max(0, $0)) } ?? changes), in: store)
    }

    func removedFiles(inFolder folder: String, inStoreAt store: URL) throws -> [StoreHistoryVersion] {
        let removals = try log(["--no-renames", "--diff-filter=D", "--", folder + "/"], in: store)
        var seen = Set<String>()
        var kept: [Change] = []
        for removal in removals where removal.path.hasSuffix(".json") && seen.insert(removal.path).inserted {
            // A file that is back (restored, or added again) is not removed.
            guard !FileManager.default.fileExists(atPath: store.appending(path: removal.path).path(percentEncoded: false)) else { continue }
            kept.append(removal)
            if kept.count == StoreHistoryVersion.limit { break }
        }
        return try versions(of: kept, in: store)
    }

    func files(atPaths paths: [String], commit: String, beforeCommit: Bool, inStoreAt store: URL) throws -> [String: Data] {
        guard !paths.isEmpty else { return [:] }
        guard !commit.isEmpty, commit.allSatisfy(\.isHexDigit) else { throw StoreHistoryUnavailable(reason: "there is no such commit") }
        guard (try? GitRunner.isWorkTree(store)) == true else {
            throw StoreHistoryUnavailable(reason: "the store is not in a Git work tree")
        }
        // "MODE TYPE HASH\tPATH\0" for each file, paths relative to the store.
        let listing = try? GitRunner.run(
            ["ls-tree", "-r", "-z", beforeCommit ? commit + "^" : commit, "--"] + paths, in: store)
        guard let listing, listing.status == 0 else { throw StoreHistoryUnavailable(reason: "there is no such commit") }
        var hashes: [String: String] = [:]
        for entry in listing.output.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else { continue }
            let words = text[..<tab].split(separator: " ")
            guard words.count == 3, words[1] == "blob" else { continue }
            hashes[String(text[text.index(after: tab)...])] = String(words[2])
        }
        let blobs = try contents(of: Set(hashes.values), in: store)
        return hashes.compactMapValues { blobs[$0] }
    }

    /// One commit's change to one file, as `git log --raw` says it.
    private struct Change {
        var commit: String
        var date: Date
        var author: String
        var headline: String
        var path: String
        var before: String?
        var after: String?
        /// Whether the commit is a merge; `before` is then its first parent's blob.
        var isMerge = false
    }

    /// The changes `git log --raw` lists with `arguments`, paths relative to the store.
    private func log(_ arguments: [String], in store: URL) throws -> [Change] {
        guard (try? GitRunner.isWorkTree(store)) == true else {
            throw StoreHistoryUnavailable(reason: "the store is not in a Git work tree")
        }
        let result = try? GitRunner.run(
            ["-c", "core.quotePath=false", "log", "--relative", "--raw", "--no-abbrev", Self.format] + arguments, in: store)
        guard let result, result.status == 0 else { throw StoreHistoryUnavailable(reason: "Git cannot read the history") }
        var changes: [Change] = []
        for chunk in result.text.split(separator: "\u{1e}") {
            let lines = chunk.split(separator: "\n")
            guard let header = lines.first else { continue }
            let fields = header.split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let seconds = TimeInterval(fields[1]) else { continue }
            for line in lines.dropFirst() where line.hasPrefix(":") {
                // ":100644 100644 OLD NEW M\tpath" or "… R090\told\tnew"; for a merge of two
                // parents, "::100644 100644 100644 FIRST SECOND NEW MM\tpath".
                let parents = line.prefix { $0 == ":" }.count
                let parts = line.split(separator: "\t")
                let words = line.dropFirst(parents).prefix { $0 != "\t" }.split(separator: " ")
                guard words.count == 2 * (parents + 1) + 1, parts.count >= 2 else { continue }
                changes.append(Change(
                    commit: fields[0], date: Date(timeIntervalSince1970: seconds), author: fields[2], headline: fields[3],
                    path: String(parts[parts.count - 1]), before: Self.blob(words[parents + 1]), after: Self.blob(words[2 * parents + 1]),
                    isMerge: parents > 1))
            }
        }
        return changes
    }

    /// A blob's hash, `nil` for Git's all-zero "no file".
    private static func blob(_ hash: Substring) -> String? {
        hash.allSatisfy { $0 == "0" } ? nil : String(hash)
    }

    /// The versions of `changes`, with the bytes of their blobs.
    private func versions(of changes: [Change], in store: URL) throws -> [StoreHistoryVersion] {
        let blobs = try contents(of: Set(changes.flatMap { [$0.before, $0.after].compactMap { $0 } }), in: store)
        return changes.map { change in
            StoreHistoryVersion(
                commit: change.commit, date: change.date, author: change.author, headline: change.headline, path: change.path,
                before: change.before.flatMap { blobs[$0] }, after: change.after.flatMap { blobs[$0] }, isMerge: change.isMerge)
        }
    }

    /// The bytes of each blob of `hashes`, read by one `git cat-file --batch`.
    private func contents(of hashes: Set<String>, in store: URL) throws -> [String: Data] {
        guard !hashes.isEmpty else { return [:] }
        let asked = hashes.sorted()
        let result = try? GitRunner.run(["cat-file", "--batch"], in: store, input: Data((asked.joined(separator: "\n") + "\n").utf8))
        guard let result, result.status == 0 else { throw StoreHistoryUnavailable(reason: "Git cannot read the history") }
        // Each answer is "HASH blob SIZE\n" then SIZE bytes and "\n", or "HASH missing\n".
        let output = result.output
        var blobs: [String: Data] = [:]
        var index = output.startIndex
        while index < output.endIndex, let newline = output[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let header = String(decoding: output[index..<newline], as: UTF8.self).split(separator: " ")
            index = output.index(after: newline)
            guard header.count == 3, let size = Int(header[2]), output.distance(from: index, to: output.endIndex) >= size else { continue }
            let end = output.index(index, offsetBy: size)
            blobs[String(header[0])] = Data(output[index..<end])
            index = min(output.endIndex, output.index(after: end))
        }
        return blobs
    }
}
