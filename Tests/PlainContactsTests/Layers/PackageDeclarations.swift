import Foundation

/// The `package` declarations of a library's sources: what the library offers the package's
/// other targets, which the seam between the store and the others keeps few.
///
/// A declaration is a line of code, once its comments and string literals are blanked (see
/// ``SwiftCode``), that starts with any attributes (`@discardableResult`), then `package`,
/// then any of the modifiers `static`, `final`, `mutating`, `nonisolated`, `convenience`,
/// `required`, `override`, `indirect`, `private(set)`, `fileprivate(set)`, `internal(set)`,
/// `lazy` and `weak`, then a declaration keyword (`func`, `var`, `let`, `init`, `struct`,
/// `enum`, `class`, `actor`, `protocol`, `typealias`, `subscript`, `case` or `extension`).
///
/// ```swift
/// let found = PackageDeclarations(files: [(path: "Book/Shelf.swift", text: "package struct Shelf {}\n")])
/// found.declarations.map(\.description)   // ["Book/Shelf.swift:1 struct"]
/// ```
struct PackageDeclarations {
    /// One declaration: where it is and its keyword.
    struct Declaration: Sendable, CustomStringConvertible {
        /// The file's path inside the library.
        var file: String
        /// The 1-based line.
        var line: Int
        /// The declaration keyword, such as `func`.
        var keyword: String

        var description: String { "\(file):\(line) \(keyword)" }
    }

    /// Every declaration, by file and line.
    let declarations: [Declaration]

    /// The line a declaration starts: attributes, `package`, modifiers, the keyword (captured).
    private static let pattern =
        #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*package\s+"#
        + #"(?:(?:static|final|mutating|nonisolated|convenience|required|override|indirect|(?:file)?private\(set\)|internal\(set\)|lazy|weak)\s+)*"#
        + #"(func|var|let|init|struct|enum|class|actor|protocol|typealias|subscript|case|extension)"#

    /// Reads the `.swift` files under `libraryFolder`.
    ///
    /// - Throws: what listing the folder or reading a file as UTF-8 throws.
    init(libraryFolder: URL) throws {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: libraryFolder.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        let files = try paths.map { path in
            (path: path, text: try String(contentsOf: libraryFolder.appending(path: path), encoding: .utf8))
        }
        try self.init(files: files)
    }

    /// Finds the declarations of sources given as paths inside the library and their text.
    ///
    /// - Throws: only if the pattern does not compile.
    init(files: [(path: String, text: String)]) throws {
        let regex = try Regex(Self.pattern)
        var found: [Declaration] = []
        for file in files {
            let lines = SwiftCode(file.text).text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                guard let match = try regex.firstMatch(in: String(line)), let keyword = match.output[1].substring else { continue }
                found.append(Declaration(file: file.path, line: index + 1, keyword: String(keyword)))
            }
        }
        declarations = found
    }
}
