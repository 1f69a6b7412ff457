import PlainContacts

/// The exit statuses of `contacts`, after BSD `sysexits.h`.
enum ExitStatus: Int32, Sendable {
    /// Success.
    case success = 0
    /// Anything not covered below, a cancelled interactive command, and `email` finding no
    /// address (mail clients take it for an empty answer).
    case failure = 1
    /// The command line is wrong, or adds a remote or a user whose name is taken (`EX_USAGE`).
    case usage = 64
    /// A record file, a vCard or a JSON value is malformed, or the store's IDs have reached the
    /// top of their range (`EX_DATAERR`).
    case dataError = 65
    /// No such store, record, group, remote, user or input file (`EX_NOINPUT`).
    case noInput = 66
    /// The store is busy or a save met a conflict; trying again may work (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// A server could not be reached or kept failing (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// The user has not allowed this, the system refused access to a file, or a server refused
    /// the credentials (`EX_NOPERM`).
    case noPermission = 77

    /// The exit status for a library error: the one place where error codes become statuses.
    init(for code: ContactsError.Code) {
        switch code {
        case .notAStore, .recordNotFound, .remoteNotFound, .userNotFound:
            self = .noInput
        case .malformedFile, .conflictMarkers, .malformedVCard, .malformedInput, .malformedResponse, .unsupportedFormatVersion,
            .invalidValue, .propertyTypeMismatch, .identifiersExhausted:
            self = .dataError
        case .unknownProperty, .remoteExists, .userExists:
            self = .usage
        case .busy, .conflict, .personNotSaved, .preconditionFailed, .tooManyRemovals:
            self = .temporaryFailure
        case .operationNotPermittedByUser, .permissionDenied, .authenticationFailed:
            self = .noPermission
        case .serverUnavailable:
            self = .unavailable
        default:
            self = .failure
        }
    }
}
