import FoundationEssentials

/// The absolute paths of a store's files that the writer uses, derived from the store's root.
///
/// ```
/// <store>/.contacts/lock                 the lock file (never replaced)
/// <store>/.contacts/journal              the journal of the commit in progress
/// <store>/.contacts/journal.tmp          the journal while it is being written
/// <store>/.contacts/staging/<txid>/<n>   the new bytes of a commit before they are moved into place
/// ```
struct StorePaths: Sendable {
    /// The name of the store's private, device-local folder.
    static let privateFolderName = ".contacts"

    /// The store's root folder, without a trailing slash.
    let root: String

    /// Derives the paths from the store's root folder URL.
    init(root url: URL) {
        root = StorePaths.path(of: url)
    }

    /// The file system path of a file URL, standardized and without a trailing slash.
    static func path(of url: URL) -> String {
        PosixFileSystem.path(of: url)
    }

    /// `<store>/.contacts`
    var privateFolder: String { root + "/" + StorePaths.privateFolderName }
    /// `<store>/.contacts/lock`
    var lockFile: String { privateFolder + "/lock" }
    /// `<store>/.contacts/journal`
    var journal: String { privateFolder + "/journal" }
    /// `<store>/.contacts/journal.tmp`
    var journalTemporary: String { privateFolder + "/journal.tmp" }
    /// `<store>/.contacts/staging`
    var stagingFolder: String { privateFolder + "/staging" }

    /// `<store>/.contacts/staging/<id>`, where one commit keeps its new bytes.
    func stagingFolder(for transactionID: String) -> String {
        stagingFolder + "/" + transactionID
    }

    /// The absolute path of a path relative to the root; the empty path is the root itself.
    func absolute(_ relativePath: String) -> String {
        relativePath.isEmpty ? root : root + "/" + relativePath
    }
}
