import Foundation

/// Checks a store folder for problems and repairs those that can be repaired safely.
///
/// The doctor reads the store file by file, so it works on a store that ``AddressBook`` cannot
/// open: a file that is not valid JSON, or that holds Git conflict markers, becomes a finding
/// naming the file and line instead of an error. It finds:
///
/// - files that cannot be read (``DoctorFinding/Kind/malformedFile``,
///   ``DoctorFinding/Kind/conflictMarkers``), which are left for a person to resolve;
/// - records that share a vCard UID, membership lines naming missing people, untidy
///   membership files, images no person uses, an interrupted save, hand-edited files not in
///   canonical form, stale name hashes and leftover temporary files, which ``fix()`` repairs.
///
/// ```swift
/// let doctor = StoreDoctor(storeURL: folder)
/// let problems = try doctor.check()
/// if problems.contains(where: \.fixable) {
///     let after = try doctor.fix()
///     let remaining = after.filter { !$0.fixed }
/// }
/// ```
public struct StoreDoctor: Sendable {
    /// The store folder.
    public let storeURL: URL
    /// How long to wait for another process holding the store's lock.
    public var lockTimeout: Duration = .seconds(10)

    /// A doctor for the store in `storeURL`; nothing is read until ``check()`` or ``fix()``.
    public init(storeURL: URL) {
        self.storeURL = storeURL
    }

    var layout: StoreLayout { StoreLayout(root: storeURL) }

    /// Lists the store's problems without changing anything, sorted by file and line.
    ///
    /// Reads under the store's shared lock, so a save in progress elsewhere is never seen half
    /// done.
    ///
    /// - Throws: ``ContactsError/Code/notAStore`` when the folder has no `store.json`;
    ///   ``ContactsError/Code/unsupportedFormatVersion`` for a store of a newer format;
    ///   ``ContactsError/Code/busy`` when another process holds the store for longer than
    ///   ``lockTimeout``; ``ContactsError/Code/io`` when a folder or file cannot be read.
    public func check() throws -> [DoctorFinding] {
        let layout = layout
        try AddressBook.requireStore(at: layout.root)
        return try StoreLock(storeRoot: layout.root).withShared(timeout: lockTimeout) {
            try StoreDoctorScan(layout: layout).findings
        }
    }
}
