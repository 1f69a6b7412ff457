/// One email address and whose it is, as a mail client's address query lists it: read from
/// the index without opening the person's file.
///
/// ```swift
/// for email in book.emailAddresses(matching: "ann") {
///     print(email.address, email.compositeName ?? "", email.label?.localizedName ?? "", separator: "\t")
/// }
/// ```
public struct EmailAddressListing: Sendable, Hashable {
    /// The email address, as stored.
    public var address: String
    /// The address's label (`work`, `home`, or custom text), or `nil` for none.
    public var label: Label?
    /// The record ID of the person the address belongs to.
    public var recordID: RecordID
    /// The person's composite name in the book's format, or `nil` for a person without any name.
    public var compositeName: String?

    /// Creates a listing of one address.
    public init(address: String, label: Label?, recordID: RecordID, compositeName: String?) {
        self.address = address
        self.label = label
        self.recordID = recordID
        self.compositeName = compositeName
    }
}
