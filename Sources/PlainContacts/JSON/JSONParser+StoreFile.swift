#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContactsSystem

extension JSONParser {
    /// Parses the JSON document of the store file at `path`: a syntax error becomes
    /// ``ContactsError/Code/malformedFile`` and conflict markers
    /// ``ContactsError/Code/conflictMarkers``, naming the file, line and column.
    ///
    /// ```swift
    /// let record = try JSONParser.parse(data, path: "people/ada-lovelace-0k3f2a.json")
    /// ```
    ///
    /// - Throws: ``ContactsError`` naming `path`, as above.
    package static func parse(_ data: Data, path: String) throws(ContactsError) -> JSONValue {
        do {
            return try parse(data)
        } catch {
            let code: ContactsError.Code = error.kind == .conflictMarkers ? .conflictMarkers : .malformedFile
            throw ContactsError(code, error.message, path: path, line: error.line, column: error.column)
        }
    }
}
