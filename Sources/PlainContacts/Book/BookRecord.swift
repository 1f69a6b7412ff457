/// A record an address book holds: a ``Person`` or a ``Group``.
///
/// What ``RecordTable`` needs to keep a record's place in a book: the file key the first save
/// fixes, the record ID, and the book the record belongs to.
protocol BookRecord: AnyObject {
    /// The file key, `nil` until the record is first saved.
    var key: RecordKey? { get set }
    /// The record ID, ``RecordID/invalid`` until the record is first saved.
    var recordID: RecordID { get set }
    /// The book the record was added to, if any.
    var owner: (any RecordOwner)? { get set }
}

extension Person: BookRecord {}

extension Group: BookRecord {}

extension AddressBook: RecordOwner {}
