import FoundationEssentials

/// One input of an import: a file or standard input, by the name messages give it, and its
/// bytes (``AddressBook/importContacts(from:format:options:decide:)``).
///
/// ```swift
/// let inputs = [ContactInput(name: "phone.vcf", data: phone), ContactInput(name: "google.csv", data: google)]
/// let report = try book.importContacts(from: inputs)
/// ```
public struct ContactInput: Sendable {
    /// The name warnings and errors give the input, such as its file name.
    public var name: String
    /// The input's bytes, in any format ``ContactFileFormat`` names.
    public var data: Data

    /// An input called `name` holding `data`.
    public init(name: String, data: Data) {
        self.name = name
        self.data = data
    }
}
