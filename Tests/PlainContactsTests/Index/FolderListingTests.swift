import PlainContactsSystem
import Testing

@testable import PlainContacts

/// A listing vouches for a folder only while the folder keeps its signature, and only when the
/// folder had settled before it was listed.
@Suite struct FolderListingTests {
    private let folder = FileSignature(inode: 7, size: 4096, modified: 10_000_000_000, changed: 10_000_000_000)

    @Test func aSettledListingVouchesForTheSameSignatureOnly() {
        let listing = FolderListing(signature: folder, listedAt: folder.latest + FileSignature.racyWindow + 1)
        #expect(listing.isSettled)
        #expect(listing.vouches(for: folder))
        var touched = folder
        touched.changed += 1
        #expect(!listing.vouches(for: touched))
        var replaced = folder
        replaced.inode += 1
        #expect(!listing.vouches(for: replaced))
        #expect(!listing.vouches(for: nil))
    }

    /// A folder changed within a clock tick or two of its listing could change again unseen.
    @Test func aListingTakenSoonAfterTheFolderChangedVouchesForNothing() {
        let listing = FolderListing(signature: folder, listedAt: folder.latest + FileSignature.racyWindow)
        #expect(!listing.isSettled)
        #expect(!listing.vouches(for: folder))
    }
}
