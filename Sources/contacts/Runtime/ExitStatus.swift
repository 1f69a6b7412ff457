import PlainContacts
import PlainContactsDAV

/// The exit statuses of `contacts`, after BSD `sysexits.h`.
enum ExitStatus: Int32, Sendable {
    /// Success.
    case success = 0
    /// Anything not covered below, a cancelled interactive command, and `email` finding no
    /// address (mail clients take it for an empty answer).
    case failure = 1
    /// The command line is wrong, or adds a remote or a user whose name is taken (`EX_USAGE`).
    case usage = 64
    /// A record file, a vCard or a JSON value is malformed, the store's IDs have reached the
    /// top of their range, or a server's answer is unreadable or too large (`EX_DATAERR`).
    case dataError = 65
    /// No such store, record, group, remote, user or input file (`EX_NOINPUT`).
    case noInput = 66
    /// The store is busy or a save met a conflict; trying again may work (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// A server could not be reached or kept failing (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// An internal failure: `contacts serve`'s server process kept crashing (`EX_SOFTWARE`).
    case software = 70
    /// The user has not allowed this, the system refused access to a file, or a server refused
    /// the credentials (`EX_NOPERM`).
    case noPermission = 77

    /// The exit status of a library error of any domain, `nil` for any other error: the one
    /// place where the libraries' error codes become statuses.
    init?(forLibraryError error: any Error) {
        switch error {
        case let error as ContactsError: self.init(for: error.code)
        case let error as SyncError: self.init(for: error.code)
        case let error as ServeError: self.init(for: error.code)
        case let error as InterchangeError: self.init(for: error.code)
        default: return nil
        }
    }

    /// The exit status of a store error.
    init(for code: ContactsError.Code) {
        switch code {
        case .notAStore, .recordNotFound:
            self = .noInput
        case .malformedFile, .conflictMarkers, .unsupportedFormatVersion, .invalidValue, .propertyTypeMismatch,
            .identifiersExhausted:
            self = .dataError
        case .unknownProperty:
            self = .usage
        case .busy, .conflict, .personNotSaved:
            self = .temporaryFailure
        case .operationNotPermittedByUser, .permissionDenied:
            self = .noPermission
        default:
            self = .failure
        }
    }

    /// The exit status of an error of a vCard or another contact file: every one is a data
    /// error.
    init(for code: InterchangeError.Code) {
        self = .dataError
    }

    /// The exit status of an error of the CardDAV client.
    init(for code: SyncError.Code) {
        switch code {
        case .remoteNotFound, .notFound: self = .noInput
        case .malformedResponse, .responseTooLarge: self = .dataError
        case .remoteExists: self = .usage
        case .preconditionFailed, .tooManyRemovals: self = .temporaryFailure
        case .authenticationFailed, .readOnly: self = .noPermission
        case .serverUnavailable: self = .unavailable
        default: self = .failure
        }
    }

    /// The exit status of an error of the CardDAV server and its accounts.
    init(for code: ServeError.Code) {
        switch code {
        case .userNotFound, .bookNotFound: self = .noInput
        case .userExists, .bookExists: self = .usage
        default: self = .failure
        }
    }
}
