import FoundationEssentials

/// What a Git repository of a store holds, for the programs that commit, log and merge it
/// (the `contacts` command): paths inside the repository and the store's Git settings, so
/// that no caller builds a path of the store itself.
///
/// ```swift
/// let path = StoreRepository.path(ofPersonWithKey: key)   // "people/….json"
/// try git(["log", "--", path])
/// ```
package enum StoreRepository {
    /// The files that make a folder a store (`store.json`, `.gitattributes`, `.gitignore`):
    /// they go with the first commit.
    package static var skeletonPaths: [String] { StoreLayout.skeletonNames }

    /// The folder of the people's record files inside the repository (`people`).
    package static var peopleFolder: String { StoreLayout.peopleFolderName }

    /// The path of a person's record file inside the repository.
    package static func path(ofPersonWithKey key: RecordKey) -> String {
        StoreLayout.personPath(key)
    }

    /// The files and folders, inside the repository, that go with a version of a person's
    /// record file (`data`, at `path`) besides the record: the image sidecar the version names,
    /// and the groups folder, whose membership files name the groups the person was in. A
    /// history reads them at the version's commit for a restore.
    ///
    /// ```swift
    /// StoreRepository.companionPaths(ofPersonVersion: data, path: "people/katie-bell-9dw42k.json")
    /// // ["people/katie-bell-9dw42k.jpg", "groups"]
    /// ```
    package static func companionPaths(ofPersonVersion data: Data, path: String) -> [String] {
        var paths: [String] = []
        if case .stored(let fileName)? = try? PersonRecordCoder.decode(data, path: path).state.image {
            paths.append(StoreLayout.imagePath(fileName))
        }
        return paths + [StoreLayout.groupsFolderName]
    }

    /// The composite name of the person in a version of its record file (`data`, at `path`),
    /// read from the bytes alone, as `contacts log` heads a commit with it: `nil` when the bytes
    /// are not a readable person record, `.some(nil)` for a person without a name.
    ///
    /// ```swift
    /// let shown = try git(["show", "HEAD:people/katie-bell-9dw42k.json"])
    /// StoreRepository.personName(inVersion: shown, path: "people/katie-bell-9dw42k.json",
    ///                            format: .firstNameFirst)  // "Katie Bell"
    /// ```
    package static func personName(inVersion data: Data, path: String, format: CompositeNameFormat) -> String?? {
        RecordFileName(personFile: data, path: path, format: format).map(\.name)
    }

    /// The Git settings of the store at `root`, read from its manifest at once: whether it
    /// commits every change to Git (`"autoCommit": true`) and whether the commits `contacts
    /// serve` makes are pushed to its Git remote (`"autoPush": true`). A missing or unreadable
    /// manifest says no to both.
    ///
    /// ```swift
    /// let settings = StoreRepository.gitSettings(ofStoreAt: store)
    /// if settings.autoCommit { try commit() }
    /// ```
    package static func gitSettings(ofStoreAt root: URL) -> (autoCommit: Bool, autoPush: Bool) {
        Manifest.gitSettings(inStoreAt: root)
    }

    /// What ``updateGitattributes(inStoreAt:)`` found.
    package enum GitattributesUpdate: Sendable, Equatable {
        /// The file already held the current contents.
        case current
        /// The file was missing or held what an earlier version wrote; it now holds the
        /// current contents.
        case written
        /// The file was edited by hand and was left alone; it should hold these contents,
        /// the `.gitattributes` the store needs for its merge driver and diffs.
        case edited(expected: String)
    }

    /// Brings the `.gitattributes` of the store at `root` up to date: writes it when it is
    /// missing or holds what an earlier version wrote, and never touches one edited by hand.
    ///
    /// - Throws: I/O errors naming the file.
    package static func updateGitattributes(inStoreAt root: URL) throws -> GitattributesUpdate {
        try StoreCreator(layout: StoreLayout(root: root)).updateGitattributes()
    }
}
