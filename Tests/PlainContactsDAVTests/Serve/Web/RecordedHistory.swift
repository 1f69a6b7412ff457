import DAVTestSupport
import Foundation
import Synchronization
@testable import PlainContactsDAV

/// A history kept in memory, as the tests record it: each version of a file, newest first.
final class RecordedHistory: StoreHistory {
    private let versions = Mutex<[StoreHistoryVersion]>([])

    /// Records a commit that changed the file at `path` of `store` from `before` to its bytes now.
    func record(_ headline: String, path: String, in store: TemporaryStore, before: Data?, author: String = "kim") {
        let after = (try? store.read(path)).map { Data($0.utf8) }
        versions.withLock { versions in
            let commit = String(repeating: String(versions.count % 10), count: 40)
            let date = Date(timeIntervalSince1970: 1_795_000_000 + Double(versions.count) * 60)
            versions.insert(
                StoreHistoryVersion(commit: commit, date: date, author: author, headline: headline, path: path, before: before, after: after),
                at: 0)
        }
    }

    func versions(ofFile path: String, inStoreAt store: URL) throws -> [StoreHistoryVersion] {
        versions.withLock { $0.filter { $0.path == path } }
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
