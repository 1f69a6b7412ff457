import DAVTestSupport
import Foundation
import Synchronization
@testable import PlainContactsDAV

/// A history kept in memory, as the tests record it: each version of a file, newest first,
/// and the files of `people/` and `groups/` as each commit left them.
final class RecordedHistory: StoreHistory {
    private let versions = Mutex<[StoreHistoryVersion]>([])
    /// The files of `people/` and `groups/` after each commit, oldest first, with the commit.
    private let snapshots = Mutex<[(commit: String, files: [String: Data])]>([])

    /// Records a commit that changed the file at `path` of `store` from `before` to its bytes now.
    func record(_ headline: String, path: String, in store: TemporaryStore, before: Data?, author: String = "kim") {
        let after = (try? store.read(path)).map { Data($0.utf8) }
        versions.withLock { versions in
            let number = String(versions.count)
            let commit = String(repeating: "0", count: 40 - number.count) + number
            let date = Date(timeIntervalSince1970: 1_795_000_000 + Double(versions.count) * 60)
            versions.insert(
                StoreHistoryVersion(commit: commit, date: date, author: author, headline: headline, path: path, before: before, after: after),
                at: 0)
            snapshots.withLock { $0.append((commit, Self.files(of: store.storeURL))) }
        }
    }

    func files(atPaths paths: [String], commit: String, beforeCommit: Bool, inStoreAt store: URL) throws -> [String: Data] {
        let all = snapshots.withLock { $0 }
        guard let index = all.lastIndex(where: { $0.commit == commit }) else { throw StoreHistoryUnavailable(reason: "there is no such commit") }
        let files = beforeCommit ? (index > 0 ? all[index - 1].files : [:]) : all[index].files
        return files.filter { path, _ in paths.contains { path == $0 || path.hasPrefix($0 + "/") } }
    }

    /// The files of `people/` and `groups/` of the store at `root`, by path.
    private static func files(of root: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for folder in ["people", "groups"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: folder).path(percentEncoded: false))) ?? []
            for name in names {
                files["\(folder)/\(name)"] = FileManager.default.contents(atPath: root.appending(path: "\(folder)/\(name)").path(percentEncoded: false))
            }
        }
        return files
    }

    func versions(ofFile path: String, skipping: Int, limit: Int?, inStoreAt store: URL) throws -> [StoreHistoryVersion] {
        let all = versions.withLock { $0.filter { $0.path == path } }.dropFirst(skipping)
        return Array(limit.map { all.prefix($0) } ?? all)
    }

    func removedFiles(inFolder folder: String, inStoreAt store: URL) throws -> [StoreHistoryVersion] {
        let all = versions.withLock { $0 }
        var seen = Set<String>()
        return all.filter { version in
            seen.insert(version.path).inserted && version.after == nil
                && !FileManager.default.fileExists(atPath: store.appending(path: version.path).path(percentEncoded: false))
        }
    }
}
