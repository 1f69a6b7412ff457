import Foundation
import PlainContacts

/// A store ready to be measured, and how it was made.
struct PreparedStore {
    /// The store folder (always inside the workspace: a generated store or a copy).
    var url: URL
    /// The number of people in it.
    var people: Int
    /// Where it came from, for the report.
    var origin: String
    /// A `.vcf` file of as many generated cards, for timing imports.
    var cards: URL
    /// The generator that wrote ``cards``.
    var generator: CardSource.Used
    /// The time of the import that built the store, when it was built by importing ``cards``.
    var firstImportSeconds: Double?

    /// Generates `count` cards and imports them into a new store, timing the import.
    ///
    /// - Throws: The generator's and the library's errors.
    static func generate(count: Int, source: CardSource, in workspace: Workspace) throws -> PreparedStore {
        let cards = workspace.path("cards-\(count).vcf")
        Progress.note("generating \(Format.count(count)) cards")
        let generator = try source.writeSingleFile(count: count, to: cards)
        let store = workspace.path("store-\(count)")
        Progress.note("importing them into a new store with \(StoreImport.method)")
        var imported = 0
        let seconds = try Sample.time(1, warmUp: false) { _ in
            imported = try importCards(cards, intoNewStoreAt: store)
        }.median
        Progress.note("imported \(Format.count(imported)) people in \(Format.seconds(seconds))")
        return PreparedStore(
            url: store, people: imported, origin: "generated", cards: cards, generator: generator,
            firstImportSeconds: seconds)
    }

    /// Copies an existing store into the workspace, so that the save figure never writes to it,
    /// and generates as many cards for the import figure.
    ///
    /// - Throws: ``ContactsError/Code/notAStore`` when the folder holds no store;
    ///   ``ContactsError/Code/io`` when the copy fails; the library's reading errors.
    static func copy(of original: URL, source: CardSource, in workspace: Workspace) throws -> PreparedStore {
        try AddressBook.requireStore(at: original)
        let store = workspace.path("store-copy")
        Progress.note("copying \(original.path)")
        do {
            try FileManager.default.copyItem(at: original, to: store)
        } catch {
            throw ContactsError(.io, "cannot copy the store", path: original.path, underlying: error)
        }
        let people = try AddressBook(url: store).personCount
        let cards = workspace.path("cards-\(people).vcf")
        let generator = try source.writeSingleFile(count: people, to: cards)
        return PreparedStore(
            url: store, people: people, origin: "copy of \(original.path)", cards: cards, generator: generator,
            firstImportSeconds: nil)
    }

    /// Creates a store at `folder` and imports `cards` into it.
    ///
    /// - Returns: The number of people imported.
    /// - Throws: ``ContactsError/Code/storeExists`` when the folder already holds a store, and the
    ///   library's vCard and saving errors.
    static func importCards(_ cards: URL, intoNewStoreAt folder: URL) throws -> Int {
        let book = try AddressBook.create(at: folder)
        return try StoreImport.importCards(from: cards, into: book)
    }
}
