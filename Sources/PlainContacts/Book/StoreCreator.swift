import Foundation

/// Lays out a new, empty store: manifest, record folders, private folder, `.gitignore` and
/// `.gitattributes`. Folders are created 0700 and files 0600, whatever the umask.
struct StoreCreator {
    let layout: StoreLayout

    init(layout: StoreLayout) {
        self.layout = layout
    }

    func create() throws {
        let parent = layout.root.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: parent.path) {
            do {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw PosixError.error("cannot create the folder", path: parent.path, foundationError: error, call: "FileManager.createDirectory")
            }
        }
        for folder in [layout.root, layout.peopleFolder, layout.groupsFolder, layout.privateFolder] {
            try PosixFileSystem.makeFolder(folder.path)
        }
        if !FileManager.default.fileExists(atPath: layout.gitignore.path) {
            try DurableFile.write(Data(StoreLayout.gitignoreContents.utf8), to: layout.gitignore)
        }
        if !FileManager.default.fileExists(atPath: layout.gitattributes.path) {
            try DurableFile.write(Data(StoreLayout.gitattributesContents.utf8), to: layout.gitattributes)
        }
        try DurableFile.write(Manifest().data, to: layout.manifest)
    }

    /// Brings the store's `.gitattributes` up to date: writes it when it is missing or holds
    /// what an earlier version wrote, and never touches one edited by hand.
    ///
    /// - Throws: I/O errors naming the file.
    func updateGitattributes() throws -> StoreRepository.GitattributesUpdate {
        let url = layout.gitattributes
        let current = Data(StoreLayout.gitattributesContents.utf8)
        if let data = try StoreReader(layout: layout).read(url) {
            if data == current { return .current }
            guard StoreLayout.earlierGitattributesContents.contains(where: { Data($0.utf8) == data }) else {
                return .edited(expected: StoreLayout.gitattributesContents)
            }
        }
        try DurableFile.write(current, to: url)
        return .written
    }
}
