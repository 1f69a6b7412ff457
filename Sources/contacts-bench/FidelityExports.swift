import Foundation
import PlainContacts

/// A person's 3.0 and 4.0 exports (`nil` when the export failed), and their content lines.
struct FidelityExports {
    var v3: String?
    var v4: String?

    /// Exports `person` of `book` in both versions.
    init(book: AddressBook, person: Person) {
        v3 = try? book.exportVCards([person], version: .v3)
        v4 = try? book.exportVCards([person], version: .v4)
    }

    /// The content lines of the 3.0 export.
    var v3Lines: [FidelityLine]? { v3.map(Self.lines) }
    /// The content lines of the 4.0 export.
    var v4Lines: [FidelityLine]? { v4.map(Self.lines) }

    /// The content lines of one exported card.
    static func lines(_ text: String) -> [FidelityLine] {
        FidelityCard.cards(inText: text).first?.lines ?? []
    }
}
