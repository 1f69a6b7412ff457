import FoundationEssentials
import PlainContactsSystem

/// Where each part of a store lives on disk.
///
/// ```
/// store.json               manifest: format version and settings
/// people/<key>.json        one file per person; image sidecar people/<key>.jpg
/// groups/<key>.json        one file per group
/// groups/<key>.members     the group's member keys, one per line
/// .contacts/               device-local and git-ignored: lock, journal, caches, consent, remotes,
///                          the accounts of `contacts serve`, the socket of `contacts watch`
/// ```
package struct StoreLayout: Sendable {
    package let root: URL

    package init(root: URL) {
        self.root = root.standardizedFileURL
    }

    package static let manifestName = "store.json"
    static let peopleFolderName = "people"
    static let groupsFolderName = "groups"
    static let privateFolderName = ".contacts"

    var manifest: URL { root.appending(path: StoreLayout.manifestName) }
    var peopleFolder: URL { root.appending(path: StoreLayout.peopleFolderName, directoryHint: .isDirectory) }
    var groupsFolder: URL { root.appending(path: StoreLayout.groupsFolderName, directoryHint: .isDirectory) }
    package var privateFolder: URL { root.appending(path: StoreLayout.privateFolderName, directoryHint: .isDirectory) }
    var gitignore: URL { root.appending(path: StoreLayout.gitignoreName) }
    /// Where `contacts watch` answers what changed in the store: a socket in
    /// the private folder, or, when that path is too long for a socket, a short one named by
    /// its hash (``LocalSocket/address(for:)``); `nil` when there is none to use.
    var watchSocketPath: String? {
        LocalSocket.address(for: privateFolder.appending(path: "watch.socket").path(percentEncoded: false))
    }
    /// The lock `contacts watch` holds while it runs, so that one store has one watcher.
    var watchLockPath: String { privateFolder.appending(path: "watch.lock").path(percentEncoded: false) }
    var gitattributes: URL { root.appending(path: StoreLayout.gitattributesName) }

    static let gitignoreName = ".gitignore"
    static let gitattributesName = ".gitattributes"

    /// The store's own files, which a clone of its repository needs to be a store, relative to
    /// its root: the manifest, `.gitattributes` and `.gitignore`.
    static let skeletonNames = [manifestName, gitattributesName, gitignoreName]

    /// Path of a person file relative to the root, as the writer takes it.
    static func personPath(_ key: RecordKey) -> String { "people/\(key.rawValue).json" }
    static func imagePath(_ fileName: String) -> String { "people/\(fileName)" }
    static func groupPath(_ key: RecordKey) -> String { "groups/\(key.rawValue).json" }
    static func membersPath(_ key: RecordKey) -> String { "groups/\(key.rawValue).members" }

    /// The record file of the person with `key`.
    func personFile(_ key: RecordKey) -> URL { root.appending(path: StoreLayout.personPath(key)) }
    /// The record file of the group with `key`.
    func groupFile(_ key: RecordKey) -> URL { root.appending(path: StoreLayout.groupPath(key)) }

    /// The record file of the person or group with `key`.
    ///
    /// ```swift
    /// layout.recordFile(of: .group, key: key)   // <root>/groups/friends-q97zpt.json
    /// ```
    package func recordFile(of kind: RecordType, key: RecordKey) -> URL {
        switch kind {
        case .person: personFile(key)
        case .group: groupFile(key)
        }
    }
    /// The membership file of the group with `key`.
    func membersFile(_ key: RecordKey) -> URL { root.appending(path: StoreLayout.membersPath(key)) }

    /// What the store's own `.gitignore` holds.
    static let gitignoreContents = """
        # Device-local state of the PlainContacts store: lock, journal, caches, access consent.
        /.contacts/

        """

    /// What the store's own `.gitattributes` holds.
    ///
    /// Every file of the store merges with `contacts merge-driver` (membership files as sets,
    /// so that a removal survives a merge; `store.json` setting by setting). A clone whose
    /// configuration has no `merge.contacts` driver gets Git's ordinary line merge instead: Git
    /// falls back to it for a driver it does not know.
    static let gitattributesContents = """
        # Records, membership files and settings merge with `contacts merge-driver` once
        # `contacts git-setup` has configured this clone; without it Git falls back to its
        # ordinary line merge, which marks changes to neighbouring lines as conflicts.
        groups/*.members merge=contacts text eol=lf
        people/*.json merge=contacts diff=contacts text eol=lf
        groups/*.json merge=contacts diff=contacts text eol=lf
        store.json merge=contacts text eol=lf

        """

    /// What earlier versions wrote into `.gitattributes`, which `contacts git-setup` replaces
    /// with ``gitattributesContents``; a file with any other contents was edited and is kept.
    static let earlierGitattributesContents = [
        """
        # Membership files are sets of lines: a union merge never conflicts.
        groups/*.members merge=union text eol=lf
        # Records merge property by property once `contacts git-setup` has configured the driver;
        # without it Git falls back to its ordinary text merge.
        people/*.json merge=contacts diff=contacts text eol=lf
        groups/*.json merge=contacts diff=contacts text eol=lf
        store.json text eol=lf

        """
    ]
}
