/// Why bytes are not one JSON document, and where: what ``JSONParser/parse(_:)`` throws.
///
/// Locations are 1-based; the column counts Unicode scalars from the start of the line. The
/// store turns it into its own error naming the file (`JSONParser.parse(_:path:)`).
///
/// ```swift
/// do {
///     _ = try JSONParser.parse(Data("{\"a\": }".utf8))
/// } catch {
///     error.kind      // .malformed
///     error.line      // 1
///     error.column    // 7
/// }
/// ```
package struct JSONSyntaxError: Error, Sendable, Equatable {
    /// What is wrong with the bytes.
    package enum Kind: Sendable, Equatable {
        /// Not JSON, or JSON the parser refuses (duplicate keys, nesting too deep...).
        case malformed
        /// Unresolved Git conflict markers; ``line`` is the first marker's.
        case conflictMarkers
    }

    /// What is wrong with the bytes.
    package var kind: Kind
    /// A sentence saying what was expected or found, without the location.
    package var message: String
    /// The line of the offending character, from 1.
    package var line: Int
    /// The column of the offending character, from 1, in Unicode scalars.
    package var column: Int
}
