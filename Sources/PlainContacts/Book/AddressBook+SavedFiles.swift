import FoundationEssentials

/// The files a save can change: what a program that reports the files each write changed (a
/// server committing its writes to Git) compares before and after the save.
///
/// ```swift
/// let paths = book.filesASaveCouldChange(personKey: key)   // ["store.json", "groups/…", "people/….json"]
/// ```
extension AddressBook {
    /// The files a save of the person with `key` (`nil` for a write of no saved person) could
    /// change, relative to the store's folder: `store.json`, every file of the groups folder,
    /// and the person's record file and saved image.
    package func filesASaveCouldChange(personKey key: RecordKey?) -> [String] {
        var paths = [StoreLayout.manifestName]
        let groups = layout.groupsFolder.path(percentEncoded: false)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: groups)) ?? []
        paths += names.filter { !$0.hasPrefix(".") }.map { StoreLayout.groupsFolderName + "/" + $0 }
        if let key {
            paths.append(StoreLayout.personPath(key))
            if let person = readablePerson(forKey: key), case .stored(let image) = person.state.image {
                paths.append(StoreLayout.imagePath(image))
            }
        }
        return paths
    }

    /// The files any save could change, relative to the store's folder: `store.json` and every
    /// file of the people and groups folders (what an import, which may touch every record,
    /// compares before and after).
    ///
    /// ```swift
    /// let paths = book.filesAnySaveCouldChange()   // ["store.json", "groups/…", "people/….json", "people/….jpeg"]
    /// ```
    package func filesAnySaveCouldChange() -> [String] {
        var paths = [StoreLayout.manifestName]
        for (folder, name) in [(layout.groupsFolder, StoreLayout.groupsFolderName), (layout.peopleFolder, StoreLayout.peopleFolderName)] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
            paths += names.filter { !$0.hasPrefix(".") }.map { name + "/" + $0 }
        }
        return paths
    }
}
