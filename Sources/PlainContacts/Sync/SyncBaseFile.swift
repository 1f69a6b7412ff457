import FoundationEssentials

/// The version of each contact the last sync left on both sides, kept device-local in
/// `.contacts/sync/<remote>/bases` beside the status: what a three-way merge compares both sides
/// with when both changed.
///
/// One line per contact: a digest of its UID, a space, and the version as one line of JSON (a
/// person's record, or a group's card form). Lines are parsed only when a merge needs them, so
/// a sync that merges nothing reads the file without decoding it. Losing the file loses no
/// contact: a merge without a version to compare with keeps both sides' values.
///
/// ```swift
/// var bases = try SyncBaseFile.load(from: folder)
/// bases.setPerson(person.state, id: person.recordID, for: uid)
/// try bases.save(in: folder)
/// ```
struct SyncBaseFile {
    static let fileName = "bases"

    /// The JSON text of each version, by UID digest.
    private var lines: [String: Substring] = [:]
    private var changed = false
    private var path = fileName

    init() {}

    /// Reads the versions in `folder`; none when there is no file.
    static func load(from folder: URL) throws -> SyncBaseFile {
        var file = SyncBaseFile()
        let url = folder.appending(path: fileName)
        file.path = url.path
        guard let data = try AccessFiles.read(url) else { return file }
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let space = line.firstIndex(of: " ") else { continue }
            file.lines[String(line[..<space])] = line[line.index(after: space)...]
        }
        return file
    }

    /// The last synced version of a person, or `nil` (none kept, or unreadable).
    func person(_ uid: String) -> PersonState? {
        guard let json = json(uid) else { return nil }
        return try? PersonRecordCoder.decode(json, path: path).state
    }

    /// The last synced version of a group, or `nil`.
    func group(_ uid: String) -> SyncGroupCard? {
        json(uid).flatMap(SyncGroupCard.init(json:))
    }

    mutating func setPerson(_ state: PersonState, id: RecordID, for uid: String) {
        set(PersonRecordCoder.json(id: id, state: state), for: uid)
    }

    mutating func setGroup(_ group: SyncGroupCard, for uid: String) {
        set(group.json, for: uid)
    }

    mutating func remove(_ uid: String) {
        if lines.removeValue(forKey: Self.digest(uid)) != nil { changed = true }
    }

    /// Keeps only the versions of these UIDs.
    mutating func keepOnly(_ uids: Set<String>) {
        let digests = Set(uids.map(Self.digest))
        let before = lines.count
        lines = lines.filter { digests.contains($0.key) }
        if lines.count != before { changed = true }
    }

    /// Writes the file into `folder`, if anything changed.
    func save(in folder: URL) throws {
        guard changed else { return }
        try SyncFolder.make(folder)
        var text = ""
        for key in lines.keys.sorted() {
            text += key
            text += " "
            text += lines[key] ?? ""
            text += "\n"
        }
        try AccessFiles.replace(folder.appending(path: Self.fileName), with: Data(text.utf8))
    }

    private mutating func set(_ json: JSONValue, for uid: String) {
        // Canonical JSON never has a line break inside a string, so dropping them gives one line.
        let bytes = CanonicalJSON.encode(json).filter { $0 != 0x0A }
        let line = Substring(String(decoding: bytes, as: UTF8.self))
        let key = Self.digest(uid)
        if lines[key] != line {
            lines[key] = line
            changed = true
        }
    }

    private func json(_ uid: String) -> JSONValue? {
        guard let line = lines[Self.digest(uid)] else { return nil }
        return try? JSONParser.parse(Data(line.utf8), path: path)
    }

    private static func digest(_ uid: String) -> String {
        SHA256.hexString(Array(SHA256.hash(uid.utf8).prefix(16)))
    }
}
