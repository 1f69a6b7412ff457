import FoundationEssentials
import PlainContactsSystem

/// The record-aware three-way merge behind Git's `merge=contacts` driver: merges the three
/// versions of one store file (the common ancestor, this side's, the other side's) property by
/// property rather than line by line.
///
/// - Person and group files merge through ``RecordMerger``: a property changed on one side takes
///   that side's value, multi-values merge entry by entry, the modification date takes the
///   later time and never conflicts. The result is the record's canonical bytes.
/// - Membership files merge as sets: the other side's members, plus those this side added,
///   minus those this side removed. They never conflict, and a removal survives the merge.
/// - The manifest (`store.json`) merges setting by setting; unknown settings merge like
///   properties.
///
/// A property changed differently on both sides is a conflict: the result holds this side's
/// value with Git-style markers around that property's lines (see ``ConflictMarkup``), so
/// that Git reports the conflict and the store refuses the file until someone picks a side.
///
/// The record ID is this side's, unless only the other side changed it (as when `contacts
/// doctor --fix` renumbered a duplicate there): then it is theirs. Without a base (both
/// sides added the file), the merge runs against an empty record.
///
/// ```swift
/// let (merged, conflicts) = try RecordFileMerger.merge(
///     base: base, ours: ours, theirs: theirs, path: "people/katie-bell-9dw42k.json")
/// try DurableFile<PosixError>.write(merged, to: URL(filePath: oursPath))   // what Git reads back
/// exit(conflicts.isEmpty ? 0 : 1)
/// ```
package enum RecordFileMerger {
    /// Merges three versions of the store file at `path`.
    ///
    /// The path tells the kind of file when it names one (`people/<key>.json`, `*.members`,
    /// `store.json`); otherwise (Git's temporary copies, when the driver was configured without
    /// `%P`) every version must read as the same kind (see ``RecordFileKind/agreed(_:path:)``).
    /// A version that cannot be read as that kind is an error, never skipped: a membership
    /// version with a line that is not a key is one too.
    ///
    /// - Returns: The merged bytes and the keys that conflict (empty for a clean merge).
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   when a version cannot be read; ``ContactsError/Code/unsupportedFormatVersion`` for a
    ///   manifest of a newer format. The caller then leaves the conflict to Git.
    package static func merge(base: Data?, ours: Data, theirs: Data, path: String) throws -> (merged: Data, conflicts: [String]) {
        let kind = try RecordFileKind.fromPath(path) ?? RecordFileKind.agreed([base ?? Data(), ours, theirs], path: path)
        switch kind {
        case .person: return try mergePerson(base: base, ours: ours, theirs: theirs, path: path)
        case .group: return try mergeGroup(base: base, ours: ours, theirs: theirs, path: path)
        case .members: return try mergeMembers(base: base, ours: ours, theirs: theirs, path: path)
        case .manifest: return try mergeManifest(base: base, ours: ours, theirs: theirs, path: path)
        }
    }

    /// Of two versions of one record, the one made first: the earlier modification date, then
    /// the earlier creation date, then the smaller record ID (a copy made from a card may have
    /// had to take a settled one), then the one that handed out more entry identifiers (the
    /// original, edited before it was copied), then the smaller bytes. Both sides of a merge
    /// pick the same.
    static func firstVersion(
        _ ours: PersonRecordCoder.Decoded, _ ourBytes: Data, _ theirs: PersonRecordCoder.Decoded, _ theirBytes: Data
    ) -> PersonRecordCoder.Decoded {
        func date(_ state: PersonState, _ property: PropertyID) -> Date {
            if case .timestamp(let date)? = state.values[property] { return date }
            return .distantFuture
        }
        for property in [PropertyID.modificationDate, .creationDate] {
            let (a, b) = (date(ours.state, property), date(theirs.state, property))
            if a != b { return a < b ? ours : theirs }
        }
        if ours.id != theirs.id { return ours.id < theirs.id ? ours : theirs }
        if ours.state.nextValueIdentifier != theirs.state.nextValueIdentifier {
            return ours.state.nextValueIdentifier > theirs.state.nextValueIdentifier ? ours : theirs
        }
        return ourBytes.lexicographicallyPrecedes(theirBytes) ? ours : theirs
    }

    /// Removes from the three versions of a record a stored UID that the file's key gives
    /// anyway: it says nothing (an earlier version wrote such UIDs when it synced a record
    /// another clone made), and must not make two versions differ.
    private static func withoutDerivedUIDs<Version>(
        _ base: inout Version?, _ ours: inout Version, _ theirs: inout Version, path: String,
        remove: (inout Version, RecordKey) -> Void
    ) {
        guard let key = RecordFileKind.key(ofPath: path) else { return }
        remove(&ours, key)
        remove(&theirs, key)
        if var version = base {
            remove(&version, key)
            base = version
        }
    }

    /// This side's record ID, unless only the other side changed it.
    static func mergedID(base: RecordID?, ours: RecordID, theirs: RecordID) -> RecordID {
        if let base, ours == base, theirs != base { return theirs }
        return ours
    }

    private static func mergePerson(base: Data?, ours: Data, theirs: Data, path: String) throws -> (merged: Data, conflicts: [String]) {
        var b = try base.map { try PersonRecordCoder.decode($0, path: path) }
        var o = try PersonRecordCoder.decode(ours, path: path)
        var t = try PersonRecordCoder.decode(theirs, path: path)
        withoutDerivedUIDs(&b, &o, &t, path: path) { VCardRecordFields.removeDerivedUID(from: &$0.state, key: $1) }
        // Without a base both sides added the record (as when two clones took it from one card):
        // the ID of the version made first, whichever side merges.
        let first = firstVersion(o, ours, t, theirs)
        let id = b == nil ? first.id : mergedID(base: b?.id, ours: o.id, theirs: t.id)
        if RecordContent.same(o.state, t.state) {
            // The same content reached both sides (by Git and by an account's card, say): the
            // version that came to be first, whole, so that every clone merging the two writes
            // the same bytes and a later removal on either side merges cleanly.
            return (PersonRecordCoder.encode(id: id, state: first.state), [])
        }
        var (merged, conflicts) = RecordMerger.mergeKeepingOurs(base: b?.state ?? PersonState(), ours: o.state, theirs: t.state)
        // A merge that takes nothing from one side keeps the other side's dates: the content
        // did not change there.
        if let unchanged = [o, t].first(where: { RecordContent.same(merged, $0.state) }) {
            merged.values[.modificationDate] = unchanged.state.values[.modificationDate]
            merged.values[.creationDate] = unchanged.state.values[.creationDate]
        }
        guard !conflicts.isEmpty else { return (PersonRecordCoder.encode(id: id, state: merged), []) }
        let oursJSON = PersonRecordCoder.json(id: id, state: merged).object ?? [:]
        let theirsJSON = PersonRecordCoder.json(id: t.id, state: t.state).object ?? [:]
        return (ConflictMarkup.render(ours: oursJSON, theirs: theirsJSON, conflicts: conflicts), conflicts)
    }

    private static func mergeGroup(base: Data?, ours: Data, theirs: Data, path: String) throws -> (merged: Data, conflicts: [String]) {
        var b = try base.map { try GroupRecordCoder.decode($0, path: path) }
        var o = try GroupRecordCoder.decode(ours, path: path)
        var t = try GroupRecordCoder.decode(theirs, path: path)
        withoutDerivedUIDs(&b, &o, &t, path: path) { VCardRecordFields.removeDerivedUID(from: &$0.state, key: $1) }
        func content(_ state: GroupState) -> GroupState {
            var content = state
            content.creationDate = nil
            content.modificationDate = nil
            return content
        }
        if content(o.state) == content(t.state) {
            // One group that reached both sides (two clones took it from one card): the version
            // made first, whole, as for people.
            let first = [(o, ours), (t, theirs)].min { x, y in
                let (a, c) = (x.0.state, y.0.state)
                if a.modificationDate != c.modificationDate { return (a.modificationDate ?? .distantFuture) < (c.modificationDate ?? .distantFuture) }
                if a.creationDate != c.creationDate { return (a.creationDate ?? .distantFuture) < (c.creationDate ?? .distantFuture) }
                return x.1.lexicographicallyPrecedes(y.1)
            } ?? (o, ours)
            let id = b == nil ? first.0.id : mergedID(base: b?.id, ours: o.id, theirs: t.id)
            return (GroupRecordCoder.encode(id: id, state: first.0.state), [])
        }
        var (merged, conflicts) = RecordMerger.mergeKeepingOurs(base: b?.state ?? GroupState(), ours: o.state, theirs: t.state)
        if let unchanged = [o, t].first(where: { content($0.state) == content(merged) }) {
            merged.modificationDate = unchanged.state.modificationDate
            merged.creationDate = unchanged.state.creationDate
        }
        let id = mergedID(base: b?.id, ours: o.id, theirs: t.id)
        let data = GroupRecordCoder.encode(id: id, state: merged)
        guard !conflicts.isEmpty else { return (data, []) }
        let oursJSON = try JSONParser.parse(data, path: path).object ?? [:]
        let theirsJSON = try JSONParser.parse(GroupRecordCoder.encode(id: t.id, state: t.state), path: path).object ?? [:]
        return (ConflictMarkup.render(ours: oursJSON, theirs: theirsJSON, conflicts: conflicts), conflicts)
    }

    private static func mergeMembers(base: Data?, ours: Data, theirs: Data, path: String) throws -> (merged: Data, conflicts: [String]) {
        let b = try base.map { try members($0, path: path) } ?? []
        let o = try members(ours, path: path)
        let t = try members(theirs, path: path)
        return (MembershipFile.encode(RecordMerger.merge(base: b, ours: o, theirs: t)), [])
    }

    /// The keys of one membership version, refusing a line that is not a key.
    private static func members(_ data: Data, path: String) throws -> Set<RecordKey> {
        let keys = try MembershipFile.decode(data, path: path)
        if let line = MembershipFile.firstLineNotAKey(in: data) {
            throw ContactsError(.malformedFile, "the line is not a person's key; merge the file by hand", path: path, line: line)
        }
        return keys
    }

    private static func mergeManifest(base: Data?, ours: Data, theirs: Data, path: String) throws -> (merged: Data, conflicts: [String]) {
        let b = try base.map { try Manifest(data: $0, path: path) } ?? Manifest()
        let o = try Manifest(data: ours, path: path)
        let t = try Manifest(data: theirs, path: path)
        var merged = t
        var conflicts: [String] = []
        merged.format = max(o.format, t.format)
        if o.sortOrdering != b.sortOrdering {
            if t.sortOrdering != b.sortOrdering, t.sortOrdering != o.sortOrdering { conflicts.append("sortOrdering") }
            merged.sortOrdering = o.sortOrdering
        }
        if o.compositeNameFormat != b.compositeNameFormat {
            if t.compositeNameFormat != b.compositeNameFormat, t.compositeNameFormat != o.compositeNameFormat {
                conflicts.append("compositeNameFormat")
            }
            merged.compositeNameFormat = o.compositeNameFormat
        }
        let fields = RecordMerger.mergeFieldsKeepingOurs(base: b.unknownFields, ours: o.unknownFields, theirs: t.unknownFields)
        merged.unknownFields = fields.merged
        conflicts = (conflicts + fields.conflicts).sorted()
        guard !conflicts.isEmpty else { return (merged.data, []) }
        let oursJSON = try JSONParser.parse(merged.data, path: path).object ?? [:]
        let theirsJSON = try JSONParser.parse(t.data, path: path).object ?? [:]
        return (ConflictMarkup.render(ours: oursJSON, theirs: theirsJSON, conflicts: conflicts), conflicts)
    }
}
