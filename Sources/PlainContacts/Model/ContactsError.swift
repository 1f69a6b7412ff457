/// An error raised by the PlainContacts library.
///
/// Every failure carries a stable ``Code`` that programs and tests match on, a message that
/// names the file, line or record involved, and, where one exists, the underlying error.
/// Messages never contain a person's name, phone number or email address, so that logs do
/// not leak contact data.
///
/// ```swift
/// do {
///     try book.save()
/// } catch let error as ContactsError where error.code == .busy {
///     print("Another program is saving; try again.")
/// }
/// ```
public struct ContactsError: Error, Sendable, CustomStringConvertible {
    /// A stable, extensible identifier of what went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// The folder is not a PlainContacts store (no manifest).
        public static let notAStore = Code(rawValue: "notAStore")
        /// A store already exists where one was to be created.
        public static let storeExists = Code(rawValue: "storeExists")
        /// The store was written by a newer version of PlainContacts.
        public static let unsupportedFormatVersion = Code(rawValue: "unsupportedFormatVersion")
        /// A file of the store is not valid JSON or does not have the expected shape.
        public static let malformedFile = Code(rawValue: "malformedFile")
        /// A file of the store holds unresolved Git conflict markers.
        public static let conflictMarkers = Code(rawValue: "conflictMarkers")
        /// A value of the wrong type was given for a property.
        public static let propertyTypeMismatch = Code(rawValue: "propertyTypeMismatch")
        /// A value is not acceptable for its property (for example an impossible date).
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// The property does not belong to this kind of record.
        public static let unknownProperty = Code(rawValue: "unknownProperty")
        /// A person must be saved to the store before it can join a group.
        public static let personNotSaved = Code(rawValue: "personNotSaved")
        /// A group must be saved to the store before members can be added to it.
        public static let groupNotSaved = Code(rawValue: "groupNotSaved")
        /// The record belongs to another address book.
        public static let recordInAnotherBook = Code(rawValue: "recordInAnotherBook")
        /// No record has the given record ID or name.
        public static let recordNotFound = Code(rawValue: "recordNotFound")
        /// No remote (a server address book the store syncs with) has the given name.
        public static let remoteNotFound = Code(rawValue: "remoteNotFound")
        /// A remote of the given name is already set up for the store.
        public static let remoteExists = Code(rawValue: "remoteExists")
        /// No account of `contacts serve` has the given user name.
        public static let userNotFound = Code(rawValue: "userNotFound")
        /// An account of `contacts serve` has the given user name already, and replacing its
        /// password was not asked for.
        public static let userExists = Code(rawValue: "userExists")
        /// Another process holds the store's lock for longer than the wait allows.
        public static let busy = Code(rawValue: "busy")
        /// The save found changes on disk that conflict with this book's changes.
        public static let conflict = Code(rawValue: "conflict")
        /// The user has not allowed this program to use the store
        /// (AddressBook's `kABOperationNotPermittedByUserError`).
        public static let operationNotPermittedByUser = Code(rawValue: "operationNotPermittedByUser")
        /// A vCard could not be read.
        public static let malformedVCard = Code(rawValue: "malformedVCard")
        /// A file in another contacts format (CSV, LDIF, abook, mutt aliases) could not be read,
        /// or, with a strict import, needed a recovery.
        public static let malformedInput = Code(rawValue: "malformedInput")
        /// A server's answer could not be read: XML that is not well formed, has a document type
        /// declaration (refused, never expanded), or lacks what the protocol requires.
        public static let malformedResponse = Code(rawValue: "malformedResponse")
        /// A server refused the credentials (HTTP 401 or 403): a wrong user or password, or an
        /// account without access to the address book.
        public static let authenticationFailed = Code(rawValue: "authenticationFailed")
        /// A server could not be reached, timed out, or kept failing (HTTP 5xx) after retries.
        public static let serverUnavailable = Code(rawValue: "serverUnavailable")
        /// A server refused a conditional write because the card changed there meanwhile
        /// (HTTP 412 on `If-Match` or `If-None-Match: *`); re-read it and merge.
        public static let preconditionFailed = Code(rawValue: "preconditionFailed")
        /// A sync would remove more than half of the store or of the server (and more than a
        /// handful of records), which is more often a broken server or a wrong account than
        /// the user's wish; nothing was changed. `--force` carries it out.
        public static let tooManyRemovals = Code(rawValue: "tooManyRemovals")
        /// The system refused access to a file or folder of the store (`EACCES`, `EPERM`).
        public static let permissionDenied = Code(rawValue: "permissionDenied")
        /// The disk, or the user's quota on it, is full (`ENOSPC`, `EDQUOT`).
        public static let diskFull = Code(rawValue: "diskFull")
        /// The store lies on a file system mounted read-only (`EROFS`).
        public static let readOnlyFileSystem = Code(rawValue: "readOnlyFileSystem")
        /// Reading or writing a file failed for another reason; ``ContactsError/underlying``
        /// holds the failed call and its `errno` as a ``SystemCallError`` when there was one.
        public static let io = Code(rawValue: "io")
        /// Every record ID, or every multi-value identifier of a record, has been handed out:
        /// the next one would pass 2147483647, the top of their 32-bit range.
        public static let identifiersExhausted = Code(rawValue: "identifiersExhausted")
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// One sentence describing the failure; never contains contact data.
    public var message: String
    /// The file involved, if any.
    public var path: String?
    /// The 1-based line in ``path`` where the problem was found, if known.
    public var line: Int?
    /// The 1-based column in ``path`` where the problem was found, if known.
    public var column: Int?
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?
    /// For ``Code/conflict``: every record and property that changed differently in this book
    /// and on disk.
    public var conflicts: [SaveConflict] = []

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        path: String? = nil,
        line: Int? = nil,
        column: Int? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.underlying = underlying
    }

    public var description: String {
        var location = ""
        if let path {
            location = path
            if let line {
                location += ":\(line)"
                if let column { location += ":\(column)" }
            }
            location += ": "
        }
        var text = location + message
        if let underlying {
            text += " (\(underlying))"
        }
        return text
    }
}

extension ContactsError {
    /// A record that needs a new multi-value identifier after handing out all of them.
    static func identifiersExhausted(path: String?) -> ContactsError {
        ContactsError(
            .identifiersExhausted,
            "every multi-value identifier of this record has been handed out (\"nextValueID\" is 2147483647)",
            path: path)
    }
}
