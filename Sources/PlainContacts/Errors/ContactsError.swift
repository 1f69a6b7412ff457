/// The store's domain of errors: opening, reading, saving and locking the store, records and
/// their values, access consent, and the file system under them.
public enum StoreDomain: ErrorDomain {}

/// An error raised by the store: see ``PlainContactsError``, whose ``PlainContactsError/Code``
/// values for this domain are listed below.
///
/// ```swift
/// do {
///     try book.save()
/// } catch let error as ContactsError where error.code == .busy {
///     print("Another program is saving; try again.")
/// }
/// ```
public typealias ContactsError = PlainContactsError<StoreDomain>

extension PlainContactsError.Code where Domain == StoreDomain {
    /// The folder is not a PlainContacts store (no manifest).
    public static let notAStore = Self(rawValue: "notAStore")
    /// A store already exists where one was to be created.
    public static let storeExists = Self(rawValue: "storeExists")
    /// The store was written by a newer version of PlainContacts.
    public static let unsupportedFormatVersion = Self(rawValue: "unsupportedFormatVersion")
    /// A file of the store is not valid JSON or does not have the expected shape.
    public static let malformedFile = Self(rawValue: "malformedFile")
    /// A file of the store holds unresolved Git conflict markers.
    public static let conflictMarkers = Self(rawValue: "conflictMarkers")
    /// A value of the wrong type was given for a property.
    public static let propertyTypeMismatch = Self(rawValue: "propertyTypeMismatch")
    /// A value is not acceptable for its property (for example an impossible date).
    public static let invalidValue = Self(rawValue: "invalidValue")
    /// The property does not belong to this kind of record.
    public static let unknownProperty = Self(rawValue: "unknownProperty")
    /// A person must be saved to the store before it can join a group.
    public static let personNotSaved = Self(rawValue: "personNotSaved")
    /// A group must be saved to the store before members can be added to it.
    public static let groupNotSaved = Self(rawValue: "groupNotSaved")
    /// The record belongs to another address book.
    public static let recordInAnotherBook = Self(rawValue: "recordInAnotherBook")
    /// No record has the given record ID or name.
    public static let recordNotFound = Self(rawValue: "recordNotFound")
    /// Another process holds the store's lock for longer than the wait allows.
    public static let busy = Self(rawValue: "busy")
    /// The save found changes on disk that conflict with this book's changes.
    public static let conflict = Self(rawValue: "conflict")
    /// The user has not allowed this program to use the store
    /// (AddressBook's `kABOperationNotPermittedByUserError`).
    public static let operationNotPermittedByUser = Self(rawValue: "operationNotPermittedByUser")
    /// The system refused access to a file or folder of the store (`EACCES`, `EPERM`).
    public static let permissionDenied = Self(rawValue: "permissionDenied")
    /// The disk, or the user's quota on it, is full (`ENOSPC`, `EDQUOT`).
    public static let diskFull = Self(rawValue: "diskFull")
    /// The store lies on a file system mounted read-only (`EROFS`).
    public static let readOnlyFileSystem = Self(rawValue: "readOnlyFileSystem")
    /// Reading or writing a file failed for another reason; ``ContactsError/underlying``
    /// holds the failed call and its `errno` as a ``SystemCallError`` when there was one.
    public static let io = Self(rawValue: "io")
    /// Every record ID, or every multi-value identifier of a record, has been handed out:
    /// the next one would pass 2147483647, the top of their 32-bit range.
    public static let identifiersExhausted = Self(rawValue: "identifiersExhausted")
}

extension PlainContactsError where Domain == StoreDomain {
    /// For ``PlainContactsError/Code/conflict``: every record and property that changed
    /// differently in this book and on disk.
    public var conflicts: [SaveConflict] {
        get { saveConflicts }
        set { saveConflicts = newValue }
    }

    /// A record that needs a new multi-value identifier after handing out all of them.
    static func identifiersExhausted(path: String?) -> ContactsError {
        ContactsError(
            .identifiersExhausted,
            "every multi-value identifier of this record has been handed out (\"nextValueID\" is 2147483647)",
            path: path)
    }
}
