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
    /// and the person's record file and saved image; with `everyPerson`, every file of the
    /// people folder instead (what an import, which may touch every record, compares before
    /// and after).
    ///
    /// ```swift
    /// let paths = book.filesASaveCouldChange(personKey: nil, everyPerson: true)
    /// // ["store.json", "groups/…", "people/….json", "people/….jpeg"]
    /// ```
    package func filesASaveCouldChange(personKey key: RecordKey?, everyPerson: Bool = false) -> [String] {
        var paths = [StoreLayout.manifestName] + files(of: layout.groupsFolder, named: StoreLayout.groupsFolderName)
        if everyPerson {
            paths += files(of: layout.peopleFolder, named: StoreLayout.peopleFolderName)
        } else if let key {
            paths.append(StoreLayout.personPath(key))
            if let person = readablePerson(forKey: key), case .stored(let image) = person.state.image {
                paths.append(StoreLayout.imagePath(image))
            }
        }
        return paths
    }

    /// The paths of the files in a folder of the store (`name`), hidden files left out.
    private func files(of folder: URL, named name: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
        return names.filter { !$0.hasPrefix(".") }.map { name + "/" + $0 }
    }
}
