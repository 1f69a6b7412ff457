import Foundation

/// Repairs.
extension StoreDoctor {
    /// Repairs what can be repaired safely and returns every finding, with
    /// ``DoctorFinding/fixed`` set on those repaired.
    ///
    /// Runs under the store's exclusive lock. An interrupted save is finished or undone first;
    /// then the store is scanned and every fixable problem is repaired in one all-or-nothing
    /// commit: dangling and untidy membership lines rewritten, hand-edited files and stale
    /// name hashes rewritten canonically (unknown keys are kept), leftover temporary files
    /// removed. Images no person uses are copied to `.contacts/lost+found/` before they leave
    /// `people/`, so nothing is ever deleted. Files that cannot be read (malformed, or with
    /// conflict markers) are reported and left alone, and the other repairs still happen.
    /// Records that share a vCard UID are then joined by one save of the address book, each
    /// into the record made first (see ``AddressBook/mergePerson(_:into:)``); that save needs
    /// a store the address book can open. Nothing is rewritten only to write a settled record
    /// ID: the store settles shared IDs alike on every clone when it reads them.
    ///
    /// ```swift
    /// let remaining = try StoreDoctor(storeURL: folder).fix().filter { !$0.fixed }
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/notAStore``, ``ContactsError/Code/unsupportedFormatVersion``,
    ///   ``ContactsError/Code/busy`` as ``check()`` does; ``ContactsError/Code/io`` when writing
    ///   fails, in which case no repair of the commit took effect.
    public func fix() throws -> [DoctorFinding] {
        let layout = layout
        try AddressBook.requireStore(at: layout.root)
        var (findings, duplicates) = try StoreLock(storeRoot: layout.root).withExclusive(timeout: lockTimeout) {
            var recovered: [DoctorFinding] = []
            if StoreTransaction.needsRecovery(storeRoot: layout.root) {
                let scan = try StoreDoctorScan(layout: layout)
                try StoreTransaction.recover(storeRoot: layout.root)
                recovered = scan.findings.filter { $0.kind == .interruptedCommit }.map { finding in
                    var finding = finding
                    finding.fixed = true
                    return finding
                }
            }
            let scan = try StoreDoctorScan(layout: layout)
            for path in scan.strays {
                try keepInLostAndFound(path, layout: layout)
            }
            var changes = scan.writes.keys.sorted().compactMap { path in scan.writes[path].map { FileChange.write($0, to: path) } }
            changes += scan.removals.union(scan.strays).subtracting(scan.writes.keys).sorted().map(FileChange.delete)
            try StoreTransaction.commit(changes, storeRoot: layout.root)
            let findings = recovered + scan.findings.map { finding in
                var finding = finding
                finding.fixed = finding.fixable && finding.kind != .duplicateUID
                return finding
            }
            return (findings, scan.uidDuplicates)
        }
        guard !duplicates.isEmpty, findings.allSatisfy({ $0.kind != .malformedFile && $0.kind != .conflictMarkers }) else {
            return findings
        }
        try joinRecords(duplicates)
        for index in findings.indices where findings[index].kind == .duplicateUID {
            findings[index].fixed = true
        }
        return findings
    }

    /// Merges each record into the one with the same UID that is kept, in one save.
    private func joinRecords(_ duplicates: [(kept: RecordKey, duplicate: RecordKey, isPerson: Bool)]) throws {
        let book = try AddressBook(url: storeURL)
        let groups = Dictionary(book.allGroups().compactMap { group in group.key.map { ($0, group) } }, uniquingKeysWith: { a, _ in a })
        for (kept, duplicate, isPerson) in duplicates {
            if isPerson {
                guard let survivor = try book.materialize(kept), let other = try book.materialize(duplicate) else { continue }
                try book.mergePerson(other, into: survivor)
            } else {
                guard let survivor = groups[kept], let other = groups[duplicate] else { continue }
                for member in book.members(of: other) { try book.addMember(member, to: survivor) }
                try book.remove(other)
            }
        }
        try book.save()
    }

    /// Copies a file of the store durably into `.contacts/lost+found/`, under a name not yet
    /// taken there; the commit then removes the original.
    private func keepInLostAndFound(_ path: String, layout: StoreLayout) throws {
        let source = layout.root.appending(path: path)
        guard let data = try StoreReader(layout: layout).read(source) else { return }
        let folder = layout.privateFolder.appending(path: "lost+found", directoryHint: .isDirectory)
        try PosixFileSystem.makeFolder(layout.privateFolder.path)
        try PosixFileSystem.makeFolder(folder.path)
        let name = PosixFileSystem.lastComponent(of: path)
        var target = folder.appending(path: name)
        var counter = 1
        while FileManager.default.fileExists(atPath: target.path) {
            if let existing = try? Data(contentsOf: target), existing == data { return }
            counter += 1
            let stem = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
            let suffix = URL(fileURLWithPath: name).pathExtension
            target = folder.appending(path: suffix.isEmpty ? "\(stem)-\(counter)" : "\(stem)-\(counter).\(suffix)")
        }
        try DurableFile.write(data, to: target)
    }
}
