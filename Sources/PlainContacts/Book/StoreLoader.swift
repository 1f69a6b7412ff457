import FoundationEssentials

/// Reads what an address book needs when it opens: the manifest, every group with its
/// members, and either a trusted index (when the folders are as the index last saw them) or a
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

    func load() throws -> Loaded {
        let reader = StoreReader(layout: layout)
        let manifest = try reader.readManifest()
        var groups: [StoreReader.GroupFile] = []
        for name in try reader.fileNames(in: layout.groupsFolder, withExtension: ".json") {
            guard let key = RecordKey(rawValue: String(name.dropLast(5))) else { continue }
            if let file = try reader.readGroup(key: key) { groups.append(file) }
        }
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
}
