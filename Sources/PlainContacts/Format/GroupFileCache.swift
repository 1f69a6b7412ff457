import FoundationEssentials
import Glibc
import PlainContactsSystem
import Synchronization

/// Groups as last read from their files, kept between openings of one store by a program that
/// opens it again and again (the CardDAV server opens the book for every write): a group whose
/// record and membership files still have the signatures they had when read is not read and
/// decoded again. At 100,000 people the membership files hold 40,000 lines, and decoding them
/// was most of the time a one-card write took.
///
/// A file changed within ``FileSignature/racyWindow`` of being read could change again in the same clock
/// tick without changing its signature (an editor writing in place, keeping the size), so such
/// a group is not kept: it is read again next time, as the store's index does with such files.
/// Each signature is taken before its file is read, so a kept signature never describes bytes
/// newer than the group kept with it.
///
/// ```swift
/// var options = AddressBookOptions()
/// options.groupFileCache = GroupFileCache()
/// let book = try AddressBook(url: storeURL, options: options)   // reads every group
/// let again = try AddressBook(url: storeURL, options: options)  // reads only changed groups
/// ```
final class GroupFileCache: Sendable {
    /// A group as read, with the signatures of its record and membership files then.
    private struct Kept {
        var signatures: [FileSignature?]
        var file: StoreReader.GroupFile
    }

    private let kept = Mutex<[RecordKey: Kept]>([:])
    /// How many times a group was read from its files.
    private let readCount = Atomic<Int>(0)
    /// The current time, in nanoseconds since 1970 as file times are: a group read is kept
    /// when its files last changed more than ``FileSignature/racyWindow`` before it.
    private let now: @Sendable () -> Int64

    /// An empty cache that judges files by the current time.
    convenience init() {
        self.init(now: { FileSignature.now() })
    }

    /// A cache that judges files by the time `now` tells, so that a test can open a store as if
    /// its files had last changed long before rather than wait for ``FileSignature/racyWindow``.
    init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// The group of `key` in the store of `reader`: the kept one while its files keep their
    /// signatures, else read (and kept when its files are old enough to be trusted).
    ///
    /// - Throws: the errors of ``StoreReader/readGroup(key:)``.
    func group(_ key: RecordKey, reader: StoreReader) throws -> StoreReader.GroupFile? {
        let signatures = [
            FileSignature.of(reader.layout.groupFile(key).path), FileSignature.of(reader.layout.membersFile(key).path),
        ]
        if let kept = kept.withLock({ $0[key] }), kept.signatures == signatures { return kept.file }
        let file = try reader.readGroup(key: key)
        readCount.add(1, ordering: .relaxed)
        let time = now()
        kept.withLock { kept in
            if let file, signatures.allSatisfy({ $0?.isSettled(at: time) ?? true }) {
                kept[key] = Kept(signatures: signatures, file: file)
            } else {
                kept[key] = nil
            }
        }
        return file
    }

    /// How many groups are kept.
    var count: Int {
        kept.withLock { $0.count }
    }

    /// How many times a group was read from its files rather than taken from the cache.
    var reads: Int {
        readCount.load(ordering: .relaxed)
    }
}
