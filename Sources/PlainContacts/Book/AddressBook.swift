import Foundation
import PlainContactsSystem

/// An address book: the people and groups of one store folder, with this instance's unsaved
/// changes.
///
/// Several address books may be open on the same folder, in one process or many; each has its
/// own unsaved changes and sees the others' work after ``revert()`` or a save. An address book
/// and its records are not `Sendable`: use each book from one thread, and pass ``RecordID``s
/// or ``PersonReference``s between threads.
///
/// The AddressBook equivalent is `ABAddressBookRef`, created by `ABAddressBookCreateWithOptions`.
///
/// ```swift
/// let book = try AddressBook(url: folder, options: .init(createIfMissing: true))
/// let katie = Person()
/// katie.firstName = "Katie"
/// try book.add(katie)
/// try book.save()
/// ```
public final class AddressBook {
    /// The store folder.
    public var url: URL { layout.root }

    let layout: StoreLayout
    let options: AddressBookOptions

    var manifest: Manifest
    var savedManifest: Manifest

    // People are read lazily. The catalog (a summary of every saved person, checked against the
    // files) is built when an operation needs all people; until then the index finds people by
    // ID. `people` holds the records read so far with their last saved snapshots, and "unsaved
    // changes" compares the two.
    var catalog: [RecordKey: PersonSummary]?
    /// The index confirmed against every person file by ``validate()`` without making the
    /// catalog, which is made from it when first needed; never set together with `catalog`.
    var checked: CheckedIndex?
    var index: StoreIndex?
    /// The number of saved people, known without the catalog.
    var savedPersonCount = 0
    /// Files the catalog scan already parsed, taken when those people are first used.
    var freshlyRead: [RecordKey: StoreReader.PersonFile] = [:]
    /// New IDs of people whose ID another person also has (after merging clones).
    var renumbered: [RecordKey: RecordID] = [:]
    /// A reading error met by an operation that cannot throw; see ``lastLoadError``.
    var loadError: ContactsError?
    /// The people: those read so far, added and removed.
    var people = RecordTable<Person, SavedPerson>()
    /// The groups, every saved one read when the book opens.
    var groups = RecordTable<Group, SavedGroup>()
    /// Who belongs to which group.
    var memberships = MembershipTable()

    /// External-change callbacks and their watcher.
    let changeCenter = ExternalChangeCenter()

    /// Set when a client opened the store before the user decided on its access: the book is
    /// empty and every write fails.
    let accessPending: Bool

    /// A person as last saved or loaded.
    struct SavedPerson: Sendable {
        var id: RecordID
        var state: PersonState
        var fingerprint: Fingerprint?
    }

    /// A group as last saved or loaded.
    struct SavedGroup: Sendable {
        var id: RecordID
        var state: GroupState
        var members: Set<RecordKey>
        var fingerprint: Fingerprint?
        var membersFingerprint: Fingerprint?
    }

    /// Opens the store in a folder (`ABAddressBookCreateWithOptions`).
    ///
    /// - Throws: ``ContactsError/Code/notAStore`` when the folder holds no store and
    ///   ``AddressBookOptions/createIfMissing`` is false; ``ContactsError/Code/malformedFile``,
    ///   ``ContactsError/Code/conflictMarkers`` or ``ContactsError/Code/unsupportedFormatVersion``
    ///   when a file cannot be read; ``ContactsError/Code/io`` when the folder cannot be created.
    public init(url: URL, options: AddressBookOptions = AddressBookOptions()) throws {
        layout = StoreLayout(root: url)
        self.options = options
        let reader = StoreReader(layout: layout)
        var pending = false
        if let client = options.client, reader.storeExists {
            switch AccessConsentStore(storeURL: layout.root).status(for: client) {
            case .authorized: break
            case .notDetermined: pending = true
            case .denied, .restricted:
                throw ContactsError(
                    .operationNotPermittedByUser,
                    "the user has not allowed '\(client)' to use these contacts; change it with `contacts access grant`",
                    path: layout.root.path)
            }
        }
        accessPending = pending
        if pending {
            manifest = try reader.readManifest()
            savedManifest = manifest
            return
        }
        if !reader.storeExists {
            guard options.createIfMissing else {
                throw ContactsError(
                    .notAStore,
                    "this folder is not a contacts store (no \(StoreLayout.manifestName)); create one with `contacts init`",
                    path: layout.root.path)
            }
            try StoreCreator(layout: layout).create()
        }
        let storeLayout = layout
        let loaded = try StoreSession(layout: storeLayout, options: options).read {
            try StoreLoader(layout: storeLayout, groupFileCache: options.groupFileCache).load()
        }
        manifest = loaded.manifest
        savedManifest = loaded.manifest
        install(loaded)
    }

    /// Checks that a folder holds a store, without reading it or taking its lock: a command
    /// can refuse a wrong folder before it does anything else.
    ///
    /// ```swift
    /// try AddressBook.requireStore(at: folder)   // throws .notAStore naming `contacts init`
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/notAStore`` when the folder has no store manifest.
    public static func requireStore(at url: URL) throws {
        let layout = StoreLayout(root: url)
        guard StoreReader(layout: layout).storeExists else {
            throw ContactsError(
                .notAStore, "this folder is not a contacts store (no \(StoreLayout.manifestName)); create one with `contacts init`",
                path: layout.root.path(percentEncoded: false))
        }
    }

    /// Creates a new, empty store in a folder and opens it.
    ///
    /// - Throws: ``ContactsError/Code/storeExists`` when the folder already holds a store;
    ///   ``ContactsError/Code/io`` when it cannot be written.
    public static func create(at url: URL, options: AddressBookOptions = AddressBookOptions()) throws -> AddressBook {
        let layout = StoreLayout(root: url)
        guard !StoreReader(layout: layout).storeExists else {
            throw ContactsError(.storeExists, "a contacts store already exists here", path: layout.root.path)
        }
        try StoreCreator(layout: layout).create()
        return try AddressBook(url: url, options: options)
    }

    deinit {
        changeCenter.stop()
    }

    /// Fails when the book was opened by a client the user has not yet allowed.
    func checkWritable() throws {
        guard !accessPending else {
            throw ContactsError(
                .operationNotPermittedByUser,
                "this program may not change the contacts until the user allows it (request access first)",
                path: layout.root.path)
        }
    }

    /// Where the people of this book read their saved images from.
    var imageSource: any PersonImageSource {
        StoreReader(layout: layout)
    }

    /// Records that a saved person may have changed, so that the change check looks at it.
    func noteTouched(_ person: Person) {
        people.noteTouched(person)
    }

    /// Records that a saved group may have changed, so that the change check looks at it.
    func noteTouched(_ group: Group) {
        groups.noteTouched(group)
    }

    // MARK: Settings

    /// The order in which this book sorts people, a setting of the store saved with the book
    /// (`ABPersonGetSortOrdering`).
    public var sortOrdering: SortOrdering {
        get { manifest.sortOrdering }
        set { manifest.sortOrdering = newValue }
    }

    /// Whether composite names put the first or the last name first, a setting of the store
    /// saved with the book (`ABPersonGetCompositeNameFormatForRecord`).
    public var compositeNameFormat: CompositeNameFormat {
        get { manifest.compositeNameFormat }
        set { manifest.compositeNameFormat = newValue }
    }
}
