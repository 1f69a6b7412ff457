#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// The files of a store that one write changed, found by comparing the signatures (inode, size,
/// times) of the files it could change, taken before the save and after: what `--commit` records
/// of the write.
///
/// The files a write of a record can change are few: `store.json`; the person's record file and
/// its image, under the name the person had before the save and the one it has after; and the
/// groups' record and membership files (removing a person rewrites the member files of its
/// groups), taken from a listing of `groups/`. A file first named after the save (a new
/// record's, a new image's) did not exist before it: a new record's key is one no file has. A
/// save replaces each file it writes (a new inode), so a file it wrote is found even when it
/// wrote the same bytes in the same clock tick.
///
/// ```swift
/// let files = CardDAVTouchedFiles(layout: layout, before: record, in: book)
/// try book.save()
/// files.changed(after: record, in: book)   // ["people/katie-bell-x7k2mq.json"]
/// ```
struct CardDAVTouchedFiles {
    /// The store.
    private let layout: StoreLayout
    /// The signature of each file a write could change, before the write (`nil`: it did not
    /// exist).
    private var before: [String: FileSignature?] = [:]

    /// Notes the signatures of the files a write of `record` (`nil` for a record not saved yet)
    /// could change, as they are before the write.
    init(layout: StoreLayout, before record: CardDAVEntry.Record?, in book: AddressBook) {
        self.layout = layout
        for path in candidates(record, in: book) { before[path] = .some(signature(of: path)) }
    }

    /// Notes the signatures of every file any save could change, as they are before a write
    /// that may change any record (an import).
    init(layout: StoreLayout, everyFileOf book: AddressBook) {
        self.layout = layout
        for path in book.filesASaveCouldChange(personKey: nil, everyPerson: true) { before[path] = .some(signature(of: path)) }
    }

    /// The files a write noted with ``init(layout:everyFileOf:)`` changed, sorted, relative to
    /// the store's folder: those noted before and those there now whose signatures changed.
    func changed(everyFileIn book: AddressBook) -> [String] {
        let paths = Set(before.keys).union(book.filesASaveCouldChange(personKey: nil, everyPerson: true))
        return paths.filter { path in signature(of: path) != (before[path] ?? nil) }.sorted()
    }

    /// The files the write changed, sorted, relative to the store's folder: those whose
    /// signatures changed, among the files noted before the write and those a write of the
    /// record saved, `record`, could change.
    func changed(after record: CardDAVEntry.Record, in book: AddressBook) -> [String] {
        var paths = Set(before.keys)
        paths.formUnion(candidates(record, in: book))
        return paths.filter { path in signature(of: path) != (before[path] ?? nil) }.sorted()
    }

    /// The files a write of `record` could change.
    private func candidates(_ record: CardDAVEntry.Record?, in book: AddressBook) -> [String] {
        book.filesASaveCouldChange(personKey: record.flatMap { $0.kind == .person ? $0.key : nil })
    }

    /// The signature of a file of the store; `nil` when it does not exist.
    private func signature(of path: String) -> FileSignature? {
        FileSignature.of(layout.root.appending(path: path).path(percentEncoded: false))
    }
}
