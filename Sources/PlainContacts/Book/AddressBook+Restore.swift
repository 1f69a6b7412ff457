import FoundationEssentials

/// Bringing back an earlier version of a person, or a removed person, from the bytes a version
/// of their record file had (read from the store's Git history by the caller): each a change
/// the next save writes, never a rewrite of the history.
extension AddressBook {
    /// The person an earlier version of a record file holds, in no book: what a history page
    /// shows of a version. Their photo is the one `files` holds (the files of the same commit
    /// that go with the record, by path, read as ``StoreRepository/companionPaths(ofPersonVersion:path:)``
    /// names them), else none.
    ///
    /// ```swift
    /// let katie = try AddressBook.person(inVersion: data, path: "people/katie-bell-9dw42k.json")
    /// katie.compositeName   // "Katie Bell"
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   when `data` is not a readable person record.
    package static func person(inVersion data: Data, path: String, files: [String: Data] = [:]) throws -> Person {
        let decoded = try PersonRecordCoder.decode(data, path: path)
        var state = decoded.state
        state.image = versionImage(of: decoded.state, in: files).map(ImageState.pending) ?? .none
        return Person(state: state, key: RecordKey(rawValue: Self.key(ofPath: path)), recordID: decoded.id)
    }

    /// Gives `person` back the values an earlier version of their record file holds; takes
    /// effect on the next save.
    ///
    /// The record keeps its file, record ID and creation date; its properties become the
    /// version's, with the version's multi-value identifiers (the record's counter never goes
    /// back, so no identifier retired since is given out again), and its unknown keys. Its
    /// photo becomes the version's: the bytes `files` holds for the image the version names
    /// (the files of the same commit that go with the record, by path, read as
    /// ``StoreRepository/companionPaths(ofPersonVersion:path:)`` names them), or none when the
    /// version had none; when `files` lacks the version's image, the photo stays as it is. The
    /// keys of people merged into the record stay, and so do the person's groups.
    ///
    /// ```swift
    /// let files = try history.files(atPaths: StoreRepository.companionPaths(ofPersonVersion: data, path: path), …)
    /// try book.restore(katie, toVersion: data, path: "people/katie-bell-9dw42k.json", files: files)
    /// try book.save()
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   when `data` is not a readable person record; ``ContactsError/Code/recordInAnotherBook``
    ///   when the person is not in this book; ``ContactsError/Code/operationNotPermittedByUser``
    ///   when the book may not be changed.
    func restore(_ person: Person, toVersion data: Data, path: String, files: [String: Data] = [:]) throws {
        try checkWritable()
        guard person.owner === self else {
            throw ContactsError(.recordInAnotherBook, "the person is not in this address book")
        }
        let version = try PersonRecordCoder.decode(data, path: path).state
        var state = person.state
        for property in PropertyID.personProperties where !property.isReadOnly {
            state.values[property] = version.values[property]
        }
        state.nextValueIdentifier = max(state.nextValueIdentifier, version.nextValueIdentifier)
        state.unknownFields = version.unknownFields
        if case .none = version.image {
            state.image = .none
        } else if let image = Self.versionImage(of: version, in: files), image != (try? person.imageData()) {
            state.image = .pending(image)
        }
        person.state = state
    }

    /// Adds back a removed person from the last version of their record file; the next save
    /// writes them under their old file key and record ID when no record has taken them since
    /// (else under new ones), so that the file's history goes on. With `files` (the files of
    /// the commit that held that version which go with the record, by path, read as
    /// ``StoreRepository/companionPaths(ofPersonVersion:path:)`` names them), the same save
    /// brings back their photo and puts them back into the groups they were in that are still
    /// in this book (see ``groups(ofPersonVersionAt:files:)``).
    ///
    /// ```swift
    /// let katie = try book.restoreRemovedPerson(fromVersion: data, path: "people/katie-bell-9dw42k.json", files: files)
    /// try book.save()
    /// ```
    ///
    /// - Returns: The person added.
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   when `data` is not a readable person record;
    ///   ``ContactsError/Code/operationNotPermittedByUser`` when the book may not be changed.
    func restoreRemovedPerson(fromVersion data: Data, path: String, files: [String: Data] = [:]) throws -> Person {
        let decoded = try PersonRecordCoder.decode(data, path: path)
        var state = decoded.state
        state.image = Self.versionImage(of: decoded.state, in: files).map(ImageState.pending) ?? .none
        let person = Person(state: state)
        let key = RecordKey(rawValue: Self.key(ofPath: path))
        let groups = groups(ofPersonVersionAt: path, files: files).kept.compactMap(\.key)
        let placement = RecordPlacement(uid: key?.rawValue ?? path, carriedKey: key, carriedID: decoded.id, groups: Set(groups))
        try add(person, placement: placement)
        return person
    }

    /// Brings back the version of a person an earlier version of their record file holds
    /// (`data`, at `path`, with the files of the same commit that go with it, `files`); takes
    /// effect on the next save. A person still in the book takes the version's values and photo
    /// (``restore(_:toVersion:path:files:)``); a removed one (`person` `nil`) is added back
    /// under their old file key and record ID, into the groups they were in
    /// (``restoreRemovedPerson(fromVersion:path:files:)``).
    ///
    /// ```swift
    /// try book.restorePerson(katie, toVersion: data, path: "people/katie-bell-9dw42k.json", files: files)
    /// try book.save()
    /// ```
    ///
    /// - Returns: The person restored, or added back.
    /// - Throws: as ``restore(_:toVersion:path:files:)`` and
    ///   ``restoreRemovedPerson(fromVersion:path:files:)``.
    @discardableResult
    package func restorePerson(_ person: Person?, toVersion data: Data, path: String, files: [String: Data] = [:]) throws
        -> Person
    {
        guard let person else { return try restoreRemovedPerson(fromVersion: data, path: path, files: files) }
        try restore(person, toVersion: data, path: path, files: files)
        return person
    }

    /// The groups a version of the store's files (`files`, by path, read as
    /// ``StoreRepository/companionPaths(ofPersonVersion:path:)`` names them) has the person of
    /// the record file at `path` in: those this book still has, sorted by name, and the names
    /// of those removed since (what a restore cannot put the person back into), sorted.
    ///
    /// ```swift
    /// let (kept, gone) = book.groups(ofPersonVersionAt: "people/katie-bell-9dw42k.json", files: files)
    /// gone   // ["Chasers"]
    /// ```
    package func groups(ofPersonVersionAt path: String, files: [String: Data]) -> (kept: [Group], gone: [String]) {
        guard let person = RecordKey(rawValue: Self.key(ofPath: path)) else { return ([], []) }
        let prefix = StoreLayout.groupsFolderName + "/"
        var kept: Set<RecordKey> = []
        var gone: [String] = []
        for (file, data) in files where file.hasPrefix(prefix) && file.hasSuffix(".members") {
            guard let members = try? MembershipFile.decode(data, path: file), members.contains(person),
                let group = RecordKey(rawValue: String(file.dropFirst(prefix.count).dropLast(".members".count)))
            else { continue }
            if self.group(forKey: group) != nil {
                kept.insert(group)
            } else {
                let path = StoreLayout.groupPath(group)
                let record = files[path].flatMap { try? GroupRecordCoder.decode($0, path: path) }
                gone.append(record?.state.name ?? group.rawValue)
            }
        }
        return (allGroups().filter { $0.key.map(kept.contains) ?? false }, gone.sorted())
    }

    /// The bytes of the image a version of a record names, as `files` holds them; `nil` when it
    /// names none or `files` lacks it.
    private static func versionImage(of version: PersonState, in files: [String: Data]) -> Data? {
        guard case .stored(let fileName) = version.image, let data = files[StoreLayout.imagePath(fileName)], !data.isEmpty else {
            return nil
        }
        return data
    }

    /// The key a record file's path names: its name without `.json`.
    private static func key(ofPath path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    }
}
