import FoundationEssentials
import PlainContacts
import PlainContactsSystem

/// The version of each contact the last sync left on both sides, kept device-local in
/// `.contacts/sync/<remote>/bases` beside the status: what a three-way merge compares both sides
/// with when both changed.
///
/// One line per contact: a digest of its UID, a space, and the version as one line of JSON (a
/// person's record, or a group's card form); a digest alone says the contact's version was
/// dropped. A sync appends the lines of what it changed, and a later line of a digest replaces
/// the earlier ones; the file is written afresh, without replaced lines, when a sync that read
/// it finds it more than twice as long as needed. The file is read only when a sync first
/// needs a version, and a line is parsed only when a merge needs it, so a sync that changes
/// nothing does not read it at all. Losing the file loses no contact: a merge without a
/// version to compare with keeps both sides' values.
///
/// ```swift
/// var bases = try SyncBaseFile.load(from: folder)
/// bases.setPerson(person.state, id: person.recordID, for: uid)
/// try bases.save(in: folder)
/// ```
struct SyncBaseFile {
    static let fileName = "bases"

    /// The JSON text of each version, by UID digest (once read).
    private var lines: [String: Substring] = [:]
    /// The lines this sync changed, to append: a version, or `nil` for one dropped.
    private var appended: [(digest: String, line: Substring?)] = []
    /// How many lines the file had when read.
    private var fileLines = 0
    /// The file, until it is read.
    private var unread: URL?
    private var path = fileName

    init() {}

    /// The versions in `folder`, read when first needed; none when there is no file.
    static func load(from folder: URL) throws -> SyncBaseFile {
        var file = SyncBaseFile()
        let url = folder.appending(path: fileName)
        file.path = url.path
        file.unread = url
        return file
    }

    /// Reads the file, the first time a version is needed. An unreadable file reads as no
    /// versions: merges then keep both sides' values.
    private mutating func read() {
        guard let url = unread else { return }
        unread = nil
        guard let data = try? DeviceFiles.read(url) else { return }
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            fileLines += 1
            guard let space = line.firstIndex(of: " ") else {
                lines[String(line)] = nil
                continue
            }
            lines[String(line[..<space])] = line[line.index(after: space)...]
        }
        // Changes made before the file was read (none, as every change reads it first) win.
        for (digest, line) in appended { lines[digest] = line }
    }

    /// The last synced version of a person, or `nil` (none kept, or unreadable).
    mutating func person(_ uid: String) -> PersonState? {
        guard let line = line(uid) else { return nil }
        return try? StoreFileRoundTrip.person(fromRecordFile: Data(line.utf8), path: path).state
    }

    /// The last synced version of a group, or `nil`.
    mutating func group(_ uid: String) -> GroupCard? {
        json(uid).flatMap(GroupCard.init(json:))
    }

    /// Keeps a person's version, with its record ID, as a save would write its record file.
    mutating func setPerson(_ state: PersonState, id: RecordID, for uid: String) {
        setPerson(recordFile: StoreFileRoundTrip.recordFile(id: id, state: state), for: uid)
    }

    /// Keeps a person's version as its record file holds it (canonical JSON).
    mutating func setPerson(recordFile: Data, for uid: String) {
        setLine(recordFile.filter { $0 != 0x0A }, for: uid)
    }

    mutating func setGroup(_ group: GroupCard, for uid: String) {
        set(group.json, for: uid)
    }

    mutating func remove(_ uid: String) {
        let digest = Self.digest(uid)
        if unread == nil, lines[digest] == nil { return }
        lines[digest] = nil
        appended.append((digest, nil))
    }

    /// Keeps only the versions of these UIDs (nothing to do when the file was never needed).
    mutating func keepOnly(_ uids: Set<String>) {
        guard unread == nil else { return }
        let digests = Set(uids.map(Self.digest))
        for digest in lines.keys where !digests.contains(digest) {
            lines[digest] = nil
            appended.append((digest, nil))
        }
    }

    /// Writes what changed into `folder`: appended to the file, or the whole file afresh when
    /// it was read and holds more than twice the lines it needs.
    func save(in folder: URL) throws {
        guard !appended.isEmpty else { return }
        try DeviceFiles.makePrivateFolders(folder)
        let url = folder.appending(path: Self.fileName)
        var text = ""
        if unread == nil, fileLines + appended.count > 2 * lines.count + 64 {
            for key in lines.keys.sorted() {
                text += key + " " + (lines[key] ?? "") + "\n"
            }
            try DurableFile.write(Data(text.utf8), to: url)
            return
        }
        // A line break first ends a line a crash may have left torn.
        text += "\n"
        for (digest, line) in appended {
            text += line.map { digest + " " + $0 } ?? digest
            text += "\n"
        }
        try DeviceFiles.append(Data(text.utf8), to: url)
    }

    /// Notes a version to append, without reading the file.
    private mutating func set(_ json: JSONValue, for uid: String) {
        setLine(CanonicalJSON.encode(json).filter { $0 != 0x0A }, for: uid)
    }

    /// Notes a version's one line of JSON to append. Canonical JSON never has a line break
    /// inside a string, so dropping its line breaks gives one line.
    private mutating func setLine(_ bytes: Data, for uid: String) {
        let line = Substring(String(decoding: bytes, as: UTF8.self))
        let key = Self.digest(uid)
        if lines[key] != line {
            lines[key] = line
            appended.append((key, line))
        }
    }

    private mutating func json(_ uid: String) -> JSONValue? {
        guard let line = line(uid) else { return nil }
        return try? JSONParser.parse(Data(line.utf8), path: path)
    }

    /// The one line of JSON kept for `uid`, if any.
    private mutating func line(_ uid: String) -> Substring? {
        read()
        return lines[Self.digest(uid)]
    }

    private static func digest(_ uid: String) -> String {
        SHA256.hexString(Array(SHA256.hash(uid.utf8).prefix(16)))
    }
}
