import FoundationEssentials

/// The message of a commit that records a command's changes to a store, naming the people and
/// groups changed: `contacts: add Katie Bell; edit John Appleseed`.
///
/// People come first, then groups, then settings, each in the order given. A membership file or
/// image changed without its record reads as an edit of that record. Past five changes the
/// first line ends `; and N more` and the body lists every change. A record that cannot be read
/// is named by its key.
///
/// ```swift
/// let message = StoreCommitMessage.make([(status: "A", path: "people/katie-bell-9dw42k.json")]) { path, deleted in
///     try bytes(of: path, asCommitted: deleted)
/// }
/// // "contacts: add Katie Bell"
/// ```
package enum StoreCommitMessage {
    /// The most changes the first line names.
    private static let shownChanges = 5

    /// Composes the message for the staged `entries`.
    ///
    /// - Parameters:
    ///   - entries: Git's status letter (`A`, `M`, `D`) and the path relative to the store's
    ///     root of each staged file.
    ///   - contents: The bytes of a store file now, or as last committed when `deleted` is
    ///     `true` (or the file is gone); `nil` when there are none.
    /// - Throws: Whatever `contents` throws.
    package static func make<Failure: Error>(
        _ entries: [(status: Character, path: String)],
        contents: (_ path: String, _ deleted: Bool) throws(Failure) -> Data?
    ) throws(Failure) -> String {
        let paths = Set(entries.map(\.path))
        var format: CompositeNameFormat?
        func personName(_ path: String, deleted: Bool) throws(Failure) -> String {
            if format == nil {
                // An unreadable manifest, now or in Git, means the default format.
                let manifest = (try? contents(StoreLayout.manifestName, false)) ?? Data()
                format = (try? Manifest(data: manifest, path: path))?.compositeNameFormat ?? .firstNameFirst
            }
            let data = try contents(path, deleted)
            return data.flatMap { RecordFileName(personFile: $0, path: path, format: format ?? .firstNameFirst)?.name }
                ?? key(of: path)
        }
        func groupName(_ path: String, deleted: Bool) throws(Failure) -> String {
            try contents(path, deleted).flatMap { RecordFileName(groupFile: $0, path: path)?.name } ?? key(of: path)
        }
        var items: [String] = []
        let ordered = entries.enumerated().sorted { (rank($0.element.path), $0.offset) < (rank($1.element.path), $1.offset) }
        for (status, path) in ordered.map(\.element) {
            let verb = status == "A" ? "add" : status == "D" ? "remove" : "edit"
            var item: String?
            if path == StoreLayout.manifestName {
                item = status == "A" ? "create the store" : "change settings"
            } else if let record = record(of: path, in: StoreLayout.peopleFolderName) {
                if path == record {
                    item = "\(verb) \(try personName(record, deleted: status == "D"))"
                } else if !paths.contains(record) {
                    item = "edit \(try personName(record, deleted: false))"
                }
            } else if let record = record(of: path, in: StoreLayout.groupsFolderName) {
                if path == record {
                    item = "\(verb) group \(try groupName(record, deleted: status == "D"))"
                } else if !paths.contains(record) {
                    item = "edit group \(try groupName(record, deleted: false))"
                }
            }
            if let item, !items.contains(item) { items.append(item) }
        }
        let shown = items.prefix(shownChanges).joined(separator: "; ")
        guard items.count > shownChanges else { return "contacts: " + shown }
        return "contacts: \(shown); and \(items.count - shownChanges) more\n\n" + items.joined(separator: "\n")
    }

    /// People first, then groups, then anything else.
    private static func rank(_ path: String) -> Int {
        path.hasPrefix(StoreLayout.peopleFolderName + "/") ? 0 : path.hasPrefix(StoreLayout.groupsFolderName + "/") ? 1 : 2
    }

    /// The record file (`<folder>/<stem>.json`) a file in `folder` belongs to, or `nil` when
    /// `path` is not in `folder`.
    private static func record(of path: String, in folder: String) -> String? {
        guard path.hasPrefix(folder + "/") else { return nil }
        return folder + "/" + key(of: path) + ".json"
    }

    /// The file's name without folder and extension: the record's key.
    private static func key(of path: String) -> String {
        URL(filePath: path).deletingPathExtension().lastPathComponent
    }
}
