import PlainContactsSystem

/// A book's whole people list kept between changes, by a program that shows it again and
/// again (the server's web pages): every person's line in the book's sort ordering, with what
/// places it in the list and what a name search matches it on, and the people with a photo.
///
/// The list is made once from a book (``init(book:)``), then caught up with each change by
/// reading again only the files of the people changed (``caughtUp(withChangedPeople:present:layout:)``),
/// and kept between runs as bytes (``encoded``, ``init(encoded:)``), so that a program started
/// again need not sort everyone again. Its lines, filtered by ``lines(matchingName:among:)``,
/// are those of ``AddressBook/listing()`` and ``AddressBook/listing(matchingName:)``, in the
/// same order.
///
/// ```swift
/// var list = KeptPeopleList(book: book)
/// if let caughtUp = try list.caughtUp(withChangedPeople: [key], layout: layout) { list = caughtUp }
/// let found = list.lines(matchingName: "bel")   // book.listing(matchingName: "bel") once saved
/// let bytes = list.encoded                       // KeptPeopleList(encoded:) reads them back
/// ```
package struct KeptPeopleList: Sendable {
    /// What the encoded list starts with, and the version of its layout: another version is
    /// not read.
    private static let magic = "plaincontacts-people-list"
    private static let formatVersion: UInt32 = 1

    /// Every person's entry, in the list's order.
    private(set) var entries: [PersonListingEntry]
    /// The record IDs of the people who have a saved image.
    package private(set) var withPhotos: Set<RecordID>
    /// The book's sort ordering and name format, which changed people's lines are made in.
    let ordering: SortOrdering
    let format: CompositeNameFormat
    /// Whether one person's line can be made from their file alone: not when the book gives
    /// people who share a record ID others (see ``AddressBook/listsRenumberedPeople``).
    let canCatchUp: Bool

    /// The list of `book` as it is now, its unsaved changes included.
    package init(book: AddressBook) {
        entries = book.listingEntries()
        withPhotos = book.recordIDsWithSavedImages()
        ordering = book.sortOrdering
        format = book.compositeNameFormat
        canCatchUp = !book.listsRenumberedPeople
    }

    private init(
        entries: [PersonListingEntry], withPhotos: Set<RecordID>, ordering: SortOrdering, format: CompositeNameFormat
    ) {
        self.entries = entries
        self.withPhotos = withPhotos
        self.ordering = ordering
        self.format = format
        canCatchUp = true
    }

    /// How many people the list holds.
    package var count: Int { entries.count }

    /// The lines of the people whose names match `words` (everyone when it has only spaces;
    /// nobody when it has no word a search can use), of the people whose file keys are in
    /// `keys` when given, in the list's order.
    ///
    /// ```swift
    /// let team = list.lines(matchingName: "bel", among: memberKeys)
    /// ```
    package func lines(matchingName words: String, among keys: Set<RecordKey>? = nil) -> [PersonListing] {
        let query = words.contains(where: { !$0.isWhitespace }) ? PersonListingEntry.Query(words) : nil
        guard query != nil || keys != nil else { return entries.map(\.line) }
        var lines: [PersonListing] = []
        for entry in entries {
            if let query, !entry.matches(query) { continue }
            if let keys, !(entry.key.map(keys.contains) ?? false) { continue }
            lines.append(entry.line)
        }
        return lines
    }

    /// The list with the people whose file keys are `keys` read again from their files as
    /// they are now (added, changed or gone), each moved to its place, and, when `present`
    /// gives the keys of everyone saved now, without the people not among them; `nil` when
    /// the list must be made again from the book: it was made from a book whose people share
    /// record IDs, a changed person now shares one, or most of the list changed.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` and the reading errors of a changed
    ///   person's file.
    package func caughtUp(
        withChangedPeople keys: Set<RecordKey>, present: Set<RecordKey>? = nil, layout: StoreLayout
    ) throws -> KeptPeopleList? {
        guard canCatchUp else { return nil }
        var keys = keys
        if let present {
            for entry in entries { if let key = entry.key, !present.contains(key) { keys.insert(key) } }
        }
        guard !keys.isEmpty else { return self }
        guard keys.count <= max(64, entries.count / 4) else { return nil }
        let changed = Array(keys)
        let (ordering, format) = (self.ordering, self.format)
        let read = Parallel.map(changed.count, minimumChunk: 32) { index in
            Result { try PersonListingEntry.read(key: changed[index], layout: layout, ordering: ordering, format: format) }
        }
        let fresh = try read.compactMap { try $0.get() }
        let freshIDs = Set(fresh.map(\.line.recordID))
        guard freshIDs.count == fresh.count else { return nil }
        var list = self
        var gone: [RecordID] = []
        list.entries.removeAll { entry in
            guard let key = entry.key, keys.contains(key) else { return false }
            gone.append(entry.line.recordID)
            return true
        }
        for id in gone { list.withPhotos.remove(id) }
        // Two people now share an ID: the book gives one of them another.
        guard !list.entries.contains(where: { freshIDs.contains($0.line.recordID) }) else { return nil }
        for entry in fresh {
            list.entries.insert(entry, at: list.place(of: entry))
            if entry.namesImage == true { list.withPhotos.insert(entry.line.recordID) }
        }
        return list
    }

    /// Where `entry` goes in the sorted entries: after every entry that precedes it.
    private func place(of entry: PersonListingEntry) -> Int {
        var (low, high) = (entries.startIndex, entries.endIndex)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].precedes(entry) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: Kept between runs

    /// The list as bytes that ``init(encoded:)`` reads back; `nil` when it cannot be kept so:
    /// it holds people not saved yet or changed since read, or people who share record IDs.
    package var encoded: [UInt8]? {
        guard canCatchUp else { return nil }
        var writer = IndexWriter()
        writer.string(Self.magic)
        writer.uint32(Self.formatVersion)
        writer.string(ordering.rawValue)
        writer.string(format.rawValue)
        writer.uint32(UInt32(entries.count))
        for entry in entries {
            guard case .summary(let summary) = entry.names, entry.key == summary.key else { return nil }
            writer.int32(entry.line.recordID.rawValue)
            writer.byte(entry.namesImage.map { $0 ? 1 : 0 } ?? 2)
            writer.string(entry.line.compositeName)
            summary.encode(into: &writer)
        }
        writer.uint32(UInt32(withPhotos.count))
        for id in withPhotos.sorted(by: { $0.rawValue < $1.rawValue }) { writer.int32(id.rawValue) }
        return writer.bytes
    }

    /// The list ``encoded`` gave, read from `bytes` at `offset` to their end (a file that
    /// holds more before it need not be copied); `nil` when the bytes are not such a list of
    /// this version, or are damaged.
    package init?(encoded bytes: [UInt8], at offset: Int = 0) {
        do {
            guard offset >= 0, offset <= bytes.count else { return nil }
            var reader = IndexReader(bytes, offset: offset)
            guard try reader.string() == Self.magic, try reader.uint32() == Self.formatVersion,
                let ordering = SortOrdering(rawValue: try reader.requiredString()),
                let format = CompositeNameFormat(rawValue: try reader.requiredString())
            else { return nil }
            let count = Int(try reader.uint32())
            guard count <= bytes.count else { return nil }
            // The summaries read their fields in place, in one copy of the bytes they all share.
            let shared = IndexBytes(copying: bytes)
            var entries: [PersonListingEntry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let id = RecordID(try reader.int32())
                let image = try reader.byte()
                let name = try reader.string()
                let length = Int(try reader.uint32())
                let body = reader.offset..<(reader.offset + length)
                try reader.skip(length)
                let summary = try PersonSummary.decode(body: body, sharing: shared)
                let line = PersonListing(recordID: id, compositeName: name, firstPhone: summary.firstPhone, firstEmail: summary.firstEmail)
                entries.append(
                    PersonListingEntry(
                        line: line, key: summary.key, namesImage: image == 2 ? nil : image == 1,
                        sortKey: summary.sortKey(ordering), names: .summary(summary)))
            }
            let photos = Int(try reader.uint32())
            guard photos <= bytes.count else { return nil }
            var withPhotos = Set<RecordID>(minimumCapacity: photos)
            for _ in 0..<photos { withPhotos.insert(RecordID(try reader.int32())) }
            guard reader.isAtEnd else { return nil }
            self.init(entries: entries, withPhotos: withPhotos, ordering: ordering, format: format)
        } catch {
            return nil
        }
    }
}
