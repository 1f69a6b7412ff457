/// One line of a contacts list: what a list view shows of a person, read from the index
/// without opening the person's file.
public struct PersonListing: Sendable, Hashable {
    /// The person's record ID.
    public var recordID: RecordID
    /// The composite name in the book's format, or `nil` for a person without any name.
    public var compositeName: String?
    /// The first phone number, if any.
    public var firstPhone: String?
    /// The first email address, if any.
    public var firstEmail: String?

    /// Creates a listing line.
    public init(recordID: RecordID, compositeName: String?, firstPhone: String?, firstEmail: String?) {
        self.recordID = recordID
        self.compositeName = compositeName
        self.firstPhone = firstPhone
        self.firstEmail = firstEmail
    }
}
