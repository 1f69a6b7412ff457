/// One problem ``StoreDoctor`` found in a store folder, and whether it was or can be repaired.
///
/// ```swift
/// for finding in try StoreDoctor(storeURL: folder).check() {
///     print("\(finding.path)\(finding.line.map { ":\($0)" } ?? ""): \(finding.message)")
/// }
/// ```
public struct DoctorFinding: Sendable, Hashable {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A record file or the manifest is not valid JSON or lacks the expected shape. Not
        /// repaired automatically: edit the file at the line given.
        case malformedFile
        /// A file holds unresolved Git conflict markers. Not repaired automatically: keep one
        /// side and delete the markers, or take a whole side with `git checkout --ours` or
        /// `--theirs`, then `git add` the file.
        case conflictMarkers
        /// Two records of one type share a vCard UID: one card brought into the store twice (two
        /// clones each made a record of it, before such records were named after the UID).
        /// Repaired by merging the later record into the one made first, as `contacts merge`
        /// does: nothing is lost, and references to the later one resolve to the kept one.
        ///
        /// Two records sharing a record ID are no finding: the store settles them the same way
        /// on every clone when it is read, and the settled ID is written with the record's
        /// next change (see ``DuplicateIDResolver``).
        case duplicateUID
        /// A membership line names a person whose file does not exist. Repaired by dropping
        /// the line.
        case danglingMember
        /// A membership file has blank, repeated, unsorted or unreadable lines. Repaired by
        /// rewriting it canonically.
        case duplicateMemberLine
        /// A file in `people/` that no person references as its image. Repaired by moving it
        /// to `.contacts/lost+found/`; nothing is deleted.
        case orphanSidecar
        /// A save was interrupted (a journal or staged files remain). Repaired by finishing or
        /// undoing it, as the next save would.
        case interruptedCommit
        /// A record file or the manifest is valid but not in canonical form (hand-edited with
        /// other spacing or key order, say). Repaired by rewriting it canonically; unknown
        /// keys are kept.
        case nonCanonicalFile
        /// A person's stored name hash does not match its first and last name (edited by
        /// hand). Repaired by rewriting the record.
        case staleNameHash
        /// A leftover temporary file (`.<name>.tmp-…`) of an interrupted write. Repaired by
        /// removing it.
        case strayTemporaryFile
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The file, relative to the store folder (`people/katie-bell-9dw42k.json`).
    public var path: String
    /// The 1-based line of the file where the problem is, when known.
    public var line: Int?
    /// The record involved, when known.
    public var recordID: RecordID?
    /// What is wrong and what to do; never contains a person's name, phone or email.
    public var message: String
    /// Whether ``StoreDoctor/fix()`` repairs it.
    public var fixable: Bool
    /// Whether ``StoreDoctor/fix()`` repaired it.
    public var fixed: Bool

    /// Creates a finding.
    public init(
        kind: Kind, path: String, line: Int? = nil, recordID: RecordID? = nil, message: String,
        fixable: Bool, fixed: Bool = false
    ) {
        self.kind = kind
        self.path = path
        self.line = line
        self.recordID = recordID
        self.message = message
        self.fixable = fixable
        self.fixed = fixed
    }
}
