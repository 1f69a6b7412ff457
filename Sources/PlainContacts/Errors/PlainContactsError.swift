/// The errors of one domain of the PlainContacts libraries: here the store (``ContactsError``)
/// and vCards and the other contact formats (``InterchangeError``); a library built on this
/// one declares its own domains the same way.
///
/// Every failure carries a stable ``Code`` of its domain that programs and tests match on, a
/// message that names the file, line or record involved, and, where one exists, the
/// underlying error. Messages never contain a person's name, phone number or email address, so
/// that logs do not leak contact data.
///
/// ```swift
/// do {
///     try book.save()
/// } catch let error as ContactsError where error.code == .busy {
///     print("Another program is saving; try again.")
/// } catch let error as InterchangeError {
///     print(error.path ?? "", error.line ?? 0, error.message)
/// }
/// ```
public struct PlainContactsError<Domain: ErrorDomain>: Error, Sendable, CustomStringConvertible {
    /// A stable, extensible identifier of what went wrong, one set per domain.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// One sentence describing the failure; never contains contact data.
    public var message: String
    /// The file (or, for a server, the URL) involved, if any.
    public var path: String?
    /// The 1-based line in ``path`` where the problem was found, if known.
    public var line: Int?
    /// The 1-based column in ``path`` where the problem was found, if known.
    public var column: Int?
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?
    /// The conflicts of a save that could not merge (``ContactsError/conflicts``).
    var saveConflicts: [SaveConflict] = []

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

    /// The error as an error of another domain, with the same message, place and cause: what
    /// a layer does with an error it passes on under its own code.
    public func recoded<Other>(_ code: PlainContactsError<Other>.Code) -> PlainContactsError<Other> {
        PlainContactsError<Other>(code, message, path: path, line: line, column: column, underlying: underlying)
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

/// Any error the PlainContacts libraries report, whatever its domain: what a program catches
/// to handle every failure of theirs alike, leaving other errors alone.
///
/// ```swift
/// do {
///     _ = try book.importVCards(from: data, source: "cards.vcf")
/// } catch let error as any PlainContactsFailure {
///     print(error)   // "cards.vcf:3: …"
/// }
/// ```
public protocol PlainContactsFailure: Error, Sendable, CustomStringConvertible {
    /// One sentence describing the failure; never contains contact data.
    var message: String { get }
    /// The file (or URL) involved, if any.
    var path: String? { get }
    /// The 1-based line in ``path``, if known.
    var line: Int? { get }
}

extension PlainContactsError: PlainContactsFailure {}

/// What names a domain of ``PlainContactsError``: an empty type per domain, so that each
/// domain's errors are a type of their own to catch, with codes of their own.
public protocol ErrorDomain: Sendable {}
