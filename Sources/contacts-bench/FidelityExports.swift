import Foundation
import PlainContacts

/// A person's 3.0 and 4.0 exports and their content lines; `nil` when the export failed.
struct FidelityExports {
    var v3: String?
    var v4: String?
    /// The content lines of ``v3``.
    var v3Lines: [FidelityLine]?
    /// The content lines of ``v4``.
    var v4Lines: [FidelityLine]?

    /// Exports `person` of `book` in both versions.
    init(book: AddressBook, person: Person) {
        v3 = try? book.exportVCards([person], version: .v3)
        v4 = try? book.exportVCards([person], version: .v4)
        v3Lines = v3.map(Self.lines)
        v4Lines = v4.map(Self.lines)
    }

    /// The content lines of one exported card.
    static func lines(_ text: String) -> [FidelityLine] {
        FidelityCard.cards(inText: text).first?.lines ?? []
    }
}
