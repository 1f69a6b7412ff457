import FoundationEssentials
import PlainContactsSystem

/// Reads what an address book needs when it opens: the manifest, every group with its
/// members (those of ``AddressBookOptions/groupFileCache`` whose files did not change), and
/// either a trusted index (when the folders are as the index last saw them) or a
/// full catalog of the people.
struct StoreLoader {
    struct Loaded {
        var manifest: Manifest
        var groups: [StoreReader.GroupFile]
        var index: StoreIndex?
        /// The catalog, when the index could not be trusted without a scan.
        var catalog: PersonCatalog?
    }

    let layout: StoreLayout
    /// Groups kept from earlier openings, if any.
    var groupFileCache: GroupFileCache? = nil

    func load() throws -> Loaded {
        let reader = StoreReader(layout: layout)
        let manifest = try reader.readManifest()
        let groups = try readGroups(reader)
        let index = StoreIndex.load(layout)
        if let index, !index.hasDuplicateIDs,
            index.peopleFolder == FileSignature.of(layout.peopleFolder.path),
            index.groupsFolder == FileSignature.of(layout.groupsFolder.path)
        {
            return Loaded(manifest: manifest, groups: groups, index: index, catalog: nil)
        }
        let catalog = try PersonCatalog.scan(layout: layout, index: index)
        return Loaded(manifest: manifest, groups: groups, index: StoreIndex.load(layout), catalog: catalog)
    }

    /// Every group with its members, read on all cores: membership files grow with the store
    /// (40,000 lines at 100,000 people) and each is independent.
    private func readGroups(_ reader: StoreReader) throws -> [StoreReader.GroupFile] {
        let keys = try reader.fileNames(in: layout.groupsFolder, withExtension: ".json")
            .compactMap { RecordKey(rawValue: String($0.dropLast(5))) }
        let layout = layout
        if let groupFileCache {
            // Stat calls only, but for the groups whose files changed.
            return try keys.compactMap { try groupFileCache.group($0, reader: reader) }
        }
        let results = Parallel.map(keys.count) { position in
            Result { try StoreReader(layout: layout).readGroup(key: keys[position]) }
        }
        // The first error in file order, as a sequential read would have thrown.
        return try results.compactMap { try $0.get() }
    }
}
