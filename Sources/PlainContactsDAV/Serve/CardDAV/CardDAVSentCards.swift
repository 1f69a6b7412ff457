#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PlainContactsSystem
import Synchronization
import PlainContacts

/// The cards clients put, kept as they sent them, so that a client reads back the bytes it
/// sent (and the `PUT` can be answered with their ETag) for as long as nothing else changed
/// the record.
///
/// The store keeps a person or a group as JSON, not as a card: the card the store makes from
/// the record says the same things, spelled its own way. So the server keeps the body of each
/// `PUT` it took whole, device-local in `.contacts/carddav/sent/` (one file per record, mode
/// 0600, never committed), with the ETag of the card the store made from the record right
/// after the save: the record's *source*. While the store would still make the card with that
/// ETag, the record has not changed, and the sent card is served in its place, under its own
/// ETag (``etag(of:)``); once the record changes by another path (the command line, `git
/// pull`, `contacts sync`, another client), the store's card is served again and the sent
/// card is forgotten, its file removed.
///
/// Each file is a header line and the card's bytes:
///
/// ```
/// plaincontacts-sent 1 p2-3f2a9c0d11e4b7a8
/// BEGIN:VCARD␍␊VERSION:3.0␍␊…
/// ```
///
/// Safe to use from many threads.
///
/// ```swift
/// let sent = CardDAVSentCards(layout: layout)
/// try sent.keep(body, for: record, source: made.etag)
/// sent.card(for: record, source: made.etag)?.etag   // "s-…" while the record is unchanged
/// ```
final class CardDAVSentCards: Sendable {
    /// A card as a client sent it.
    struct Sent: Sendable {
        /// The card's bytes, as the body of the `PUT`.
        var data: Data
        /// Its strong ETag, unquoted (``etag(of:)``).
        var etag: String
        /// The card's `VERSION` (`3.0`, `4.0`); `nil` when it names none.
        var version: String?
    }

    /// What is known of a kept card without reading it.
    private struct Kept: Sendable {
        /// The ETag of the store's card of the record when the card was kept.
        var source: String
        var etag: String
        var version: String?
    }

    /// The folder of the kept cards.
    let folder: URL
    private let kept: Mutex<[CardDAVEntry.Record: Kept]>

    /// The first field of every file's header line.
    private static let magic = "plaincontacts-sent"
    /// The format written; a file of another is forgotten.
    private static let formatVersion = 1

    /// The cards kept in a store, read from their files. A file that cannot be read, or whose
    /// record is gone (removed while the server was stopped), is removed: the record's card is
    /// the store's again.
    init(layout: StoreLayout) {
        folder = CardDAVStateFile.folder(in: layout).appending(path: "sent", directoryHint: .isDirectory)
        var found: [CardDAVEntry.Record: Kept] = [:]
        let path = folder.path(percentEncoded: false)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where !name.hasPrefix(".") {
            guard let record = Self.record(fileName: name),
                PosixFileSystem.exists(
                    layout.recordFile(of: record.kind == .person ? .person : .group, key: record.key).path(percentEncoded: false)),
                let data = try? DeviceFiles.read(folder.appending(path: name)),
                let (source, card) = Self.split(data)
            else {
                unlink(path + "/" + name)
                continue
            }
            found[record] = Kept(source: source, etag: Self.etag(of: card), version: CardDAVCollection.version(of: card))
        }
        kept = Mutex(found)
    }

    /// How many cards are kept.
    var count: Int {
        kept.withLock { $0.count }
    }

    /// A sent card's ETag: `s-` and the first 16 bytes of the SHA-256 digest of its bytes, in
    /// hexadecimal.
    static func etag(of card: Data) -> String {
        "s-" + SHA256.hexString(SHA256.hash(card).prefix(16))
    }

    /// The card a client sent for a record, when the store's card of the record still has the
    /// ETag `source` it had when the card was kept; `nil` when there is none, and the card is
    /// forgotten when the record changed since.
    ///
    /// - Parameter reading: `false` to leave ``Sent/data`` empty (a listing needs only the ETag).
    func card(for record: CardDAVEntry.Record, source: String, reading: Bool = true) -> Sent? {
        guard let entry = kept.withLock({ $0[record] }) else { return nil }
        guard entry.source == source else {
            forget(record, unless: entry.etag)
            return nil
        }
        guard reading else { return Sent(data: Data(), etag: entry.etag, version: entry.version) }
        guard let data = try? DeviceFiles.read(url(of: record)), let (_, card) = Self.split(data),
            Self.etag(of: card) == entry.etag
        else {
            forget(record, unless: nil)
            return nil
        }
        return Sent(data: card, etag: entry.etag, version: entry.version)
    }

    /// Keeps `card` as sent for a record whose store card now has the ETag `source`.
    ///
    /// - Throws: ``ContactsError/Code/io`` when its file cannot be written (the card is then
    ///   not kept, and the store's card is served).
    func keep(_ card: Data, for record: CardDAVEntry.Record, source: String) throws {
        var data = Data("\(Self.magic) \(Self.formatVersion) \(source)\n".utf8)
        data.append(card)
        let entry = Kept(source: source, etag: Self.etag(of: card), version: CardDAVCollection.version(of: card))
        try kept.withLock { kept in
            do {
                try DeviceFiles.makePrivateFolders(folder)
                // Not synced: a card lost to a crash is the store's card again, which the client
                // fetches once; a `PUT` does not wait for the disk twice.
                try DurableFile.write(data, to: url(of: record), durability: .cache)
                kept[record] = entry
            } catch {
                kept[record] = nil
                unlink(url(of: record).path(percentEncoded: false))
                throw error
            }
        }
    }

    /// Forgets the card kept for a record (removed, or changed by another path).
    func forget(_ record: CardDAVEntry.Record) {
        forget(record, unless: nil)
    }

    /// Forgets the card kept for a record, unless a card with ETag `etag` was kept for it
    /// meanwhile (`nil`: whatever was kept).
    private func forget(_ record: CardDAVEntry.Record, unless etag: String?) {
        kept.withLock { kept in
            guard let entry = kept[record], etag == nil || entry.etag == etag else { return }
            kept[record] = nil
            unlink(url(of: record).path(percentEncoded: false))
        }
    }

    /// The file of a record's kept card: `person-KEY.vcf` or `group-KEY.vcf`.
    private func url(of record: CardDAVEntry.Record) -> URL {
        folder.appending(path: "\(record.kind.rawValue)-\(record.key.rawValue).vcf")
    }

    /// The record a file's name names; `nil` for any other name.
    private static func record(fileName name: String) -> CardDAVEntry.Record? {
        guard name.hasSuffix(".vcf"), let dash = name.firstIndex(of: "-"),
            let kind = CardDAVEntry.Record.Kind(rawValue: String(name[..<dash])),
            let key = RecordKey(rawValue: String(name[name.index(after: dash)..<name.index(name.endIndex, offsetBy: -4)]))
        else { return nil }
        return CardDAVEntry.Record(kind: kind, key: key)
    }

    /// A file's source and card; `nil` when its header is not of this format.
    private static func split(_ data: Data) -> (source: String, card: Data)? {
        guard let newline = data.firstIndex(of: 0x0A) else { return nil }
        let fields = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard fields.count == 3, fields[0] == magic, fields[1] == "\(formatVersion)" else { return nil }
        return (String(fields[2]), Data(data[data.index(after: newline)...]))
    }
}
