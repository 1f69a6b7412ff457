import Foundation
import Glibc
import PlainContactsSystem

/// Reads a whole store folder into values.
struct StoreReader: PersonImageSource {
    /// A person file as read.
    struct PersonFile: Sendable {
        var key: RecordKey
        var decoded: PersonRecordCoder.Decoded
        var fingerprint: Fingerprint
    }

    /// A group file and its membership file as read.
    struct GroupFile: Sendable {
        var key: RecordKey
        var id: RecordID
        var state: GroupState
        var members: Set<RecordKey>
        var fingerprint: Fingerprint
        var membersFingerprint: Fingerprint?
    }

    /// The whole store.
    struct Contents: Sendable {
        var manifest: Manifest
        var people: [PersonFile]
        var groups: [GroupFile]
    }

    let layout: StoreLayout

    init(layout: StoreLayout) {
        self.layout = layout
    }

    /// Whether the folder holds a store (its manifest exists).
    var storeExists: Bool {
        FileManager.default.fileExists(atPath: layout.manifest.path)
    }

    /// Reads the manifest.
    ///
    /// - Throws: ``ContactsError/Code/notAStore``, ``ContactsError/Code/malformedFile`` (also
    ///   when the manifest is a symbolic link), ``ContactsError/Code/unsupportedFormatVersion``;
    ///   the codes of ``read(_:)`` when the manifest exists but cannot be read.
    func readManifest() throws -> Manifest {
        let path = layout.manifest.path
        guard let data = try read(layout.manifest) else {
            throw ContactsError(
                .notAStore,
                "this folder is not a contacts store (no \(StoreLayout.manifestName)); create one with `contacts init`",
                path: layout.root.path)
        }
        return try Manifest(data: data, path: path)
    }

    /// Reads every record.
    func readAll() throws -> Contents {
        let manifest = try readManifest()
        var people: [PersonFile] = []
        for name in try fileNames(in: layout.peopleFolder, withExtension: ".json") {
            guard let key = RecordKey(rawValue: String(name.dropLast(5))) else { continue }
            if let file = try readPerson(key: key) { people.append(file) }
        }
        var groups: [GroupFile] = []
        for name in try fileNames(in: layout.groupsFolder, withExtension: ".json") {
            guard let key = RecordKey(rawValue: String(name.dropLast(5))) else { continue }
            if let file = try readGroup(key: key) { groups.append(file) }
        }
        return Contents(manifest: manifest, people: people, groups: groups)
    }

    /// Reads one person file, or `nil` when it does not exist.
    func readPerson(key: RecordKey) throws -> PersonFile? {
        let url = layout.personFile(key)
        guard let data = try read(url) else { return nil }
        let decoded = try PersonRecordCoder.decode(data, path: url.path)
        return PersonFile(key: key, decoded: decoded, fingerprint: Fingerprint(data))
    }

    /// The bytes of a person's image: those not saved yet, or those of the saved sidecar file
    /// beside the person's record; `nil` for a person without an image.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the sidecar file cannot be read;
    ///   ``ContactsError/Code/malformedFile`` when it is a symbolic link, which the store never
    ///   follows.
    func imageData(_ image: ImageState) throws -> Data? {
        switch image {
        case .none: nil
        case .pending(let data): data
        case .stored(let fileName): try imageData(fileName: fileName)
        }
    }

    /// The bytes of the image saved under `fileName` beside the records.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the file cannot be read;
    ///   ``ContactsError/Code/malformedFile`` when it is a symbolic link.
    func imageData(fileName: String) throws -> Data {
        let url = layout.peopleFolder.appending(path: fileName)
        try refuseSymbolicLink(url)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw PosixError.error("cannot read the image file", path: url.path, foundationError: error, call: "Data(contentsOf:)")
        }
    }

    /// Reads one group file and its members, or `nil` when the group file does not exist.
    func readGroup(key: RecordKey) throws -> GroupFile? {
        let url = layout.groupFile(key)
        guard let data = try read(url) else { return nil }
        let (id, state) = try GroupRecordCoder.decode(data, path: url.path)
        let membersURL = layout.membersFile(key)
        var members = Set<RecordKey>()
        var membersFingerprint: Fingerprint?
        if let membersData = try read(membersURL) {
            members = try MembershipFile.decode(membersData, path: membersURL.path)
            membersFingerprint = Fingerprint(membersData)
        }
        return GroupFile(
            key: key, id: id, state: state, members: members, fingerprint: Fingerprint(data),
            membersFingerprint: membersFingerprint)
    }

    /// The names of the files in a folder ending in an extension; none when the folder does
    /// not exist.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` when a file stands where the folder should;
    ///   ``ContactsError/Code/permissionDenied`` or another code of ``PosixError`` when the folder
    ///   exists but cannot be listed: a folder that cannot be read never looks empty.
    func fileNames(in folder: URL, withExtension suffix: String) throws -> [String] {
        guard let names = try StoreReader.entries(ofFolder: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted()
    }

    /// The names in a store folder, in no particular order, or `nil` when it does not exist
    /// (`ENOENT`).
    ///
    /// - Throws: the errors of ``folderError(_:code:call:)`` when it exists but cannot be listed.
    static func entries(ofFolder path: String) throws -> [String]? {
        do {
            return try PosixFileSystem.entries(of: path)
        } catch let error as ContactsError {
            guard let cause = error.underlying as? SystemCallError else { throw error }
            if cause.errno == ENOENT { return nil }
            throw folderError(path, code: cause.errno, call: cause.call)
        }
    }

    /// The error for a store folder that cannot be opened or listed: a file in its place makes
    /// the store malformed; any other failure is coded from its `errno` by ``PosixError``.
    static func folderError(_ path: String, code: Int32, call: String) -> ContactsError {
        guard code == ENOTDIR else {
            return PosixError.error("cannot list the folder", path: path, code: code, call: call)
        }
        return ContactsError(
            .malformedFile, "is not a folder, but the store keeps its records in a folder of this name",
            path: path, underlying: SystemCallError(call: call, errno: code))
    }

    /// The bytes of a file, or `nil` when it does not exist (`ENOENT`).
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` when the file is a symbolic link;
    ///   ``ContactsError/Code/permissionDenied`` or another code of ``PosixError`` when it exists
    ///   but cannot be read, the failed call and its `errno` as the error's underlying value.
    func read(_ url: URL) throws -> Data? {
        try refuseSymbolicLink(url)
        do {
            return try Data(contentsOf: url)
        } catch {
            if PosixError.errno(of: error) == ENOENT { return nil }
            throw PosixError.error("cannot read the file", path: url.path, foundationError: error, call: "Data(contentsOf:)")
        }
    }
}
