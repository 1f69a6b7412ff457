import Foundation
import Testing

/// The seam between the store and the other targets stays a set of named operations: few
/// `package` declarations in `Sources/PlainContacts`, read from the sources.
@Suite struct PackageDeclarationsTests {
    /// The most `package` declarations the store may have (issue 35).
    static let limit = 150

    @Test func theStoreOffersTheOtherTargetsAtMost150PackageDeclarations() throws {
        let library = URL(filePath: #filePath).deletingLastPathComponent()  // Layers
            .deletingLastPathComponent()  // PlainContactsTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
            .appending(path: "Sources").appending(path: "PlainContacts")
        let found = try PackageDeclarations(libraryFolder: library).declarations
        #expect(found.count > 0)
        let list = found.map(\.description).joined(separator: "\n")
        #expect(
            found.count <= Self.limit,
            "\(found.count) package declarations, over \(Self.limit): make what no other target uses internal, or offer one named operation for several pieces\n\(list)")
    }

    @Test func declarationsAreFoundWithTheirAttributesAndModifiers() throws {
        let source = """
            package struct Shelf {
                package let width: Int
                @discardableResult package static func add() -> Int { 1 }
                package private(set) var count = 0
                package internal(set) var total = 0
                @available(*, deprecated, message: "use add()") package init() { width = 0 }
                package enum Side { package case left }
            }
            package extension Shelf {}
            """
        let found = try PackageDeclarations(files: [(path: "Book/Shelf.swift", text: source)]).declarations
        #expect(found.map(\.keyword) == ["struct", "let", "func", "var", "var", "init", "enum", "extension"])
        #expect(found.map(\.line) == [1, 2, 3, 4, 5, 6, 7, 9])
    }

    @Test func commentsStringsAndOtherAccessDoNotCount() throws {
        let source = #"""
            /// package func documented()
            // package var commented = 0
            /* package struct Hidden {} */
            let text = """
                package func quoted()
                """
            let inline = "package var x"
            public struct Open { package func wrongLine() }
            func packageLike() {}
            internal var package = 0
            """#
        let found = try PackageDeclarations(files: [(path: "Book/Open.swift", text: source)]).declarations
        #expect(found.isEmpty, "\(found)")
    }
}
