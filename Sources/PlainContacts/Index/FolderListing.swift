import PlainContactsSystem

/// What `people/` looked like when a scan listed it: the folder's signature, and a time taken
/// before that signature was. While the folder keeps that signature, the names in it are the
/// ones the scan listed, so the index's keys can stand in for a new listing.
///
/// Adding, removing or renaming an entry (a save, `git checkout` or `git pull`, an editor that
/// writes a new file and renames it over the old one) updates the folder's modification and
/// status-change times, and no program can set the status-change time back. Only a change in
/// the same clock tick as an earlier one could leave both times as they were; a listing is
/// therefore trusted only when the folder had last changed more than
/// ``FileSignature/racyWindow`` before it was listed, so that any change after it gets a later
/// time. A write inside a file (an editor saving in place) leaves the folder alone: that is
/// what each file's own signature tells (see ``CheckedIndex``).
///
/// ```swift
/// let listing = FolderListing(signature: folder, listedAt: startedAt)
/// if listing.vouches(for: FileSignature.of(layout.peopleFolder.path)) {
///     // The folder holds the names it held at the listing.
/// }
/// ```
struct FolderListing: Hashable, Sendable {
    /// The folder's signature, taken after ``listedAt`` and before its names were read.
    var signature: FileSignature
    /// When the listing began, in nanoseconds since 1970.
    var listedAt: Int64

    /// Whether the folder had last changed long enough before the listing for any later change
    /// to give it another signature; a listing that is not settled is never recorded.
    var isSettled: Bool {
        signature.latest < listedAt - FileSignature.racyWindow
    }

    /// Whether a folder with the signature `current` holds the names that were listed: the
    /// same signature, and a settled listing.
    func vouches(for current: FileSignature?) -> Bool {
        isSettled && current == signature
    }
}
