#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Records the collection's changes in its state file (``CardDAVStateFile``): appends their
/// lines, or rewrites the file whole when the changes ask for it, the appended lines outnumber
/// the cards, or an earlier change failed to be recorded.
///
/// When recording fails, the error is thrown (no sync token is given for a state the file does
/// not hold) and the next change rewrites the file whole.
///
/// ```swift
/// var recorder = CardDAVStateRecorder(url: CardDAVStateFile.url(in: layout))
/// try recorder.record(changes, in: &table.file)
/// ```
struct CardDAVStateRecorder {
    /// The state file.
    let url: URL
    /// Set when the state file failed to take a change: it is rewritten whole next time.
    private var fileIsBehind = false

    /// A recorder of the state file at `url`.
    init(url: URL) {
        self.url = url
    }

    /// Records `changes` of `file`, the state as it now is.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the file cannot be written.
    mutating func record(_ changes: CardDAVStateChanges, in file: inout CardDAVStateFile) throws {
        guard changes.count > 0 || changes.forcesRewrite || fileIsBehind else { return }
        do {
            if changes.forcesRewrite || fileIsBehind { file.lineCount = 0 }
            let current = file
            try file.save(lineCount: changes.count, to: url) {
                var lines = changes.lines
                for name in changes.cards {
                    if let entry = current.entries[name] { CardDAVStateFile.appendLine(for: entry, to: &lines) }
                }
                return lines
            }
            fileIsBehind = false
        } catch {
            fileIsBehind = true
            throw error
        }
    }
}
