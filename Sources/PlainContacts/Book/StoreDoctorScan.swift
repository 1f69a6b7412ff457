import Foundation
import PlainContactsSystem

/// One pass over a store folder, file by file, for ``StoreDoctor``: every problem found, and
/// the file changes that repair the fixable ones.
///
/// It never needs the whole store to be readable: each record is parsed on its own, and a
/// file that cannot be read becomes a finding instead of an error.
struct StoreDoctorScan {
    private(set) var findings: [DoctorFinding] = []
    /// New bytes of the files to rewrite, by path relative to the store.
    private(set) var writes: [String: Data] = [:]
    /// Files to remove, relative to the store.
    private(set) var removals: Set<String> = []
    /// Files in `people/` to move to `.contacts/lost+found/`, relative to the store.
    private(set) var strays: [String] = []
    /// Records to merge into the record with the same UID that is kept.
    private(set) var uidDuplicates: [(kept: RecordKey, duplicate: RecordKey, isPerson: Bool)] = []

    private struct PersonEntry {
        var key: RecordKey
        var path: String
        var data: Data
        var fields: [String: JSONValue]
        var decoded: PersonRecordCoder.Decoded
    }

    private struct GroupEntry {
        var key: RecordKey
        var path: String
        var data: Data
        var id: RecordID
        var state: GroupState
    }

    private let layout: StoreLayout
    private var people: [PersonEntry] = []
    private var groups: [GroupEntry] = []
    /// Keys of every `people/<key>.json`, readable or not.
    private var personFileKeys: Set<RecordKey> = []
    private var unreadablePersonKeys: Set<RecordKey> = []
    private var otherPeopleFiles: [String] = []
    private var membershipFiles: [(key: RecordKey, name: String)] = []

    /// Scans the store at `layout`.
    ///
    /// - Throws: ``ContactsError/Code/notAStore`` without a manifest;
    ///   ``ContactsError/Code/unsupportedFormatVersion`` for a newer store;
    ///   ``ContactsError/Code/permissionDenied`` or another code of ``PosixError`` when a folder
    ///   or file exists but cannot be read; ``ContactsError/Code/malformedFile`` for a file
    ///   where a folder of the store should be.
    init(layout: StoreLayout) throws {
        self.layout = layout
        if StoreTransaction.needsRecovery(storeRoot: layout.root) {
            findings.append(DoctorFinding(
                kind: .interruptedCommit, path: StoreLayout.privateFolderName + "/journal",
                message: "a save was interrupted; fixing finishes or undoes it, as the next save would", fixable: true))
        }
        try scanManifest()
        try scanFolder("", isPeople: false, isGroups: false)
        try scanFolder(StoreLayout.peopleFolderName, isPeople: true, isGroups: false)
        try scanFolder(StoreLayout.groupsFolderName, isPeople: false, isGroups: true)
        checkPeople()
        checkGroups()
        try checkMemberships()
        checkSidecars()
        findings.sort { a, b in
            if a.path != b.path { return a.path.utf8.lexicographicallyPrecedes(b.path.utf8) }
            if a.line != b.line { return (a.line ?? 0) < (b.line ?? 0) }
            return a.kind.rawValue < b.kind.rawValue
        }
    }

    // MARK: Reading

    private mutating func scanManifest() throws {
        let path = StoreLayout.manifestName
        guard let data = try read(path) else {
            throw ContactsError(
                .notAStore,
                "this folder is not a contacts store (no \(StoreLayout.manifestName)); create one with `contacts init`",
                path: layout.root.path)
        }
        let manifest: Manifest
        do {
            manifest = try Manifest(data: data, path: path)
        } catch let error as ContactsError where error.code != .unsupportedFormatVersion {
            note(error, path: path)
            return
        }
        if manifest.data != data {
            findings.append(nonCanonical(path, recordID: nil))
            writes[path] = manifest.data
        }
    }

    private mutating func scanFolder(_ folder: String, isPeople: Bool, isGroups: Bool) throws {
        let url = folder.isEmpty ? layout.root : layout.root.appending(path: folder, directoryHint: .isDirectory)
        guard let names = try StoreReader.entries(ofFolder: url.path)?.sorted() else { return }
        for name in names {
            let path = folder.isEmpty ? name : folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: layout.root.appending(path: path).path, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            if name.hasPrefix(".") {
                if name.contains(".tmp-") {
                    findings.append(DoctorFinding(
                        kind: .strayTemporaryFile, path: path,
                        message: "a temporary file left by an interrupted write; fixing removes it", fixable: true))
                    removals.insert(path)
                }
                continue
            }
            if isPeople {
                if name.hasSuffix(".json"), let key = RecordKey(rawValue: String(name.dropLast(5))) {
                    personFileKeys.insert(key)
                    try readPerson(key: key, path: path)
                } else {
                    otherPeopleFiles.append(name)
                }
            } else if isGroups {
                if name.hasSuffix(".json"), let key = RecordKey(rawValue: String(name.dropLast(5))) {
                    try readGroup(key: key, path: path)
                } else if name.hasSuffix(".members"), let key = RecordKey(rawValue: String(name.dropLast(8))) {
                    membershipFiles.append((key, name))
                }
            }
        }
    }

    private mutating func readPerson(key: RecordKey, path: String) throws {
        guard let data = try read(path) else { return }
        do {
            guard case .object(let fields) = try JSONParser.parse(data, path: path) else {
                throw ContactsError(.malformedFile, "a person file must hold one JSON object", path: path)
            }
            let decoded = try PersonRecordCoder.decode(.object(fields), path: path)
            people.append(PersonEntry(key: key, path: path, data: data, fields: fields, decoded: decoded))
        } catch let error as ContactsError {
            unreadablePersonKeys.insert(key)
            note(error, path: path)
        }
    }

    private mutating func readGroup(key: RecordKey, path: String) throws {
        guard let data = try read(path) else { return }
        do {
            let (id, state) = try GroupRecordCoder.decode(data, path: path)
            groups.append(GroupEntry(key: key, path: path, data: data, id: id, state: state))
        } catch let error as ContactsError {
            note(error, path: path)
        }
    }

    private func read(_ path: String) throws -> Data? {
        try StoreReader(layout: layout).read(layout.root.appending(path: path))
    }

    /// Records a reading error of a file as a finding.
    private mutating func note(_ error: ContactsError, path: String) {
        if error.code == .conflictMarkers {
            findings.append(DoctorFinding(
                kind: .conflictMarkers, path: path, line: error.line,
                message: "unresolved Git merge conflict; edit the file to keep one side and delete the markers, "
                    + "or take a whole side with `git checkout --ours` (or `--theirs`) on the file, then `git add` it",
                fixable: false))
        } else {
            var message = error.message
            if let line = error.line {
                message += error.column.map { " (line \(line), column \($0))" } ?? " (line \(line))"
            }
            findings.append(DoctorFinding(
                kind: .malformedFile, path: path, line: error.line, message: message + "; correct the file by hand",
                fixable: false))
        }
    }

    // MARK: Checks

    private func nonCanonical(_ path: String, recordID: RecordID?) -> DoctorFinding {
        DoctorFinding(
            kind: .nonCanonicalFile, path: path, recordID: recordID,
            message: "the file is not in canonical form (spacing, key order or bookkeeping); "
                + "fixing rewrites it, keeping every value and unknown key",
            fixable: true)
    }

    /// Records that share a vCard UID: the same card brought into the store twice (by two
    /// clones, before records made from a card were named after its UID). The record made first
    /// is kept; ``StoreDoctor/fix()`` merges the others into it.
    private mutating func checkUIDs<Entry>(
        _ entries: [Entry], recordType: String, uid: (Entry) -> String, key: (Entry) -> RecordKey, created: (Entry) -> Date?,
        finding: (Entry) -> (path: String, id: RecordID)
    ) {
        var byUID: [String: [Entry]] = [:]
        for entry in entries { byUID[uid(entry), default: []].append(entry) }
        for sharing in byUID.values where sharing.count > 1 {
            let ordered = sharing.sorted { a, b in
                let (x, y) = (created(a)?.timeIntervalSince1970 ?? .infinity, created(b)?.timeIntervalSince1970 ?? .infinity)
                return x != y ? x < y : key(a) < key(b)
            }
            let kept = finding(ordered[0])
            for duplicate in ordered.dropFirst() {
                let (path, id) = finding(duplicate)
                findings.append(DoctorFinding(
                    kind: .duplicateUID, path: path, recordID: id,
                    message: "\(recordType) \(kept.id) has the same vCard UID (the same card, brought in twice); "
                        + "fixing merges this one into it, keeping every value",
                    fixable: true))
                uidDuplicates.append((kept: key(ordered[0]), duplicate: key(duplicate), isPerson: recordType == "person"))
            }
        }
    }

    private mutating func checkPeople() {
        checkUIDs(
            people, recordType: "person",
            uid: { VCardRecordFields.uid(of: $0.decoded.state).map(VCardRecordFields.matchKey) ?? VCardRecordFields.derivedUID(for: $0.key) },
            key: \.key, created: \.decoded.state.creationDate, finding: { ($0.path, $0.decoded.id) })
        for entry in people {
            let id = entry.decoded.id
            let state = entry.decoded.state
            var rewrite = false
            if entry.decoded.storedNameHash != state.nameHash {
                findings.append(DoctorFinding(
                    kind: .staleNameHash, path: entry.path, recordID: id,
                    message: "the stored name hash does not match the first and last name; fixing rewrites it",
                    fixable: true))
                rewrite = true
            }
            var sameHash = PersonRecordCoder.json(id: id, state: state).object ?? [:]
            sameHash["nameHash"] = entry.fields["nameHash"]
            if CanonicalJSON.encode(.object(sameHash)) != entry.data {
                findings.append(nonCanonical(entry.path, recordID: id))
                rewrite = true
            }
            if rewrite {
                writes[entry.path] = PersonRecordCoder.encode(id: id, state: state)
            }
        }
    }

    private mutating func checkGroups() {
        checkUIDs(
            groups, recordType: "group",
            uid: { entry in
                if case .string(let uid)? = entry.state.unknownFields[VCardRecordFields.uidKey], !uid.isEmpty {
                    return VCardRecordFields.matchKey(uid)
                }
                return VCardRecordFields.derivedUID(for: entry.key)
            },
            key: \.key, created: \.state.creationDate, finding: { ($0.path, $0.id) })
        for entry in groups {
            var rewrite = false
            if GroupRecordCoder.encode(id: entry.id, state: entry.state) != entry.data {
                findings.append(nonCanonical(entry.path, recordID: entry.id))
                rewrite = true
            }
            if rewrite {
                writes[entry.path] = GroupRecordCoder.encode(id: entry.id, state: entry.state)
            }
        }
    }

    private mutating func checkMemberships() throws {
        let groupIDs = Dictionary(groups.map { ($0.key, $0.id) }, uniquingKeysWith: { first, _ in first })
        for (groupKey, name) in membershipFiles {
            let path = StoreLayout.groupsFolderName + "/" + name
            guard let data = try read(path) else { continue }
            do {
                _ = try MembershipFile.decode(data, path: path)
            } catch let error as ContactsError {
                note(error, path: path)
                continue
            }
            var keys: [RecordKey: Int] = [:]
            var lineNumber = 0
            for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                lineNumber += 1
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if let key = RecordKey(rawValue: text), keys[key] == nil { keys[key] = lineNumber }
            }
            let groupID = groupIDs[groupKey]
            if MembershipFile.encode(Set(keys.keys)) != data {
                findings.append(DoctorFinding(
                    kind: .duplicateMemberLine, path: path, recordID: groupID,
                    message: "blank, repeated, unsorted or unreadable lines; fixing rewrites the file sorted, one key per line",
                    fixable: true))
            }
            for (key, line) in keys.sorted(by: { $0.value < $1.value }) where !personFileKeys.contains(key) {
                findings.append(DoctorFinding(
                    kind: .danglingMember, path: path, line: line, recordID: groupID,
                    message: "the line names a person whose file does not exist; fixing drops the line",
                    fixable: true))
            }
            let kept = Set(keys.keys.filter(personFileKeys.contains))
            let expected = MembershipFile.encode(kept)
            if expected != data {
                // An empty group keeps its empty file; only a file without its group goes.
                if kept.isEmpty, groupID == nil {
                    removals.insert(path)
                } else {
                    writes[path] = expected
                }
            }
        }
    }

    private mutating func checkSidecars() {
        var referenced = Set<String>()
        for entry in people {
            if case .stored(let fileName) = entry.decoded.state.image { referenced.insert(fileName) }
        }
        for name in otherPeopleFiles where !referenced.contains(name) {
            // A file named after a person whose record cannot be read may be its image.
            if unreadablePersonKeys.contains(where: { name.hasPrefix($0.rawValue + ".") }) { continue }
            let path = StoreLayout.peopleFolderName + "/" + name
            findings.append(DoctorFinding(
                kind: .orphanSidecar, path: path,
                message: "no person uses this file as its image; fixing moves it to .contacts/lost+found/",
                fixable: true))
            strays.append(path)
        }
    }
}
