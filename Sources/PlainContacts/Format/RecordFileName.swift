import FoundationEssentials

/// The name a person or group file shows, read from the file's bytes alone, without opening a
/// book: what `contacts log` heads a commit with and what a commit message names a record by.
///
/// ```swift
/// let shown = try GitRunner.run(["show", "HEAD:people/katie-bell-9dw42k.json"], in: store)
/// RecordFileName(personFile: shown.output, path: "people/katie-bell-9dw42k.json",
///                format: .firstNameFirst)?.name  // "Katie Bell"
/// ```
struct RecordFileName: Sendable, Equatable {
    /// The person's composite name or the group's name; `nil` when the record has none.
    let name: String?

    /// Reads a person file, or returns `nil` when `data` is not a readable person record.
    ///
    /// - Parameters:
    ///   - data: The file's bytes, as on disk or at some Git revision.
    ///   - path: The file's path, for the decoder's errors (which are dropped here).
    ///   - format: The store's composite name format.
    init?(personFile data: Data, path: String, format: CompositeNameFormat) {
        guard let decoded = try? PersonRecordCoder.decode(data, path: path) else { return nil }
        name = CompositeName.make(decoded.state.nameParts, format: format)
    }

    /// Reads a group file, or returns `nil` when `data` is not a readable group record.
    init?(groupFile data: Data, path: String) {
        guard let decoded = try? GroupRecordCoder.decode(data, path: path) else { return nil }
        name = decoded.state.name
    }
}
