import Foundation
import PlainContacts

/// What a running command needs besides its arguments: the environment, the global options,
/// the console, and access to the store.
struct CommandContext {
    /// The process environment.
    let environment: [String: String]
    /// The value of `--store`, if given.
    let storeOption: String?
    /// The value of `--lock-timeout`, if given.
    let lockTimeoutOption: String?
    /// Standard output and error.
    let console: Console
    /// The command as typed, for messages: `contacts group add`.
    let commandName: String
    /// Whether the global `--commit` was given (a command that commits on its own, as
    /// `serve` does for each change, reads it here).
    var commitRequested = false
    /// What the command says of its own change, for the commit `--commit` makes.
    let commitNote = CommitNote()

    /// The store folder, found as ``StoreLocation`` describes.
    var storeURL: URL {
        StoreLocation(option: storeOption, environment: environment).url
    }

    /// How long to wait for the store's lock.
    ///
    /// - Throws: a usage error when `--lock-timeout` or `$CONTACTS_LOCK_TIMEOUT` is not a
    ///   number of seconds.
    func lockTimeout() throws(CLIError) -> Duration {
        let text = lockTimeoutOption ?? environment["CONTACTS_LOCK_TIMEOUT"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text else { return AddressBookOptions().lockTimeout }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw CLIError.usage("the lock timeout must be a number of seconds from 0 to 86400")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Opens the address book of the store; a folder without a store is exit status 66.
    ///
    /// - Throws: `ContactsError` `.notAStore` and the reading errors of `AddressBook`.
    ///
    /// The book is kept until the process exits: a command opens one book, and tearing down
    /// the catalog of 100,000 people would cost tens of milliseconds that the exit saves.
    func openBook() throws -> AddressBook {
        let book = try AddressBook(url: storeURL, options: AddressBookOptions(lockTimeout: lockTimeout()))
        _ = Unmanaged.passRetained(book)
        return book
    }

    /// Checks that the folder holds a store, without reading it.
    ///
    /// - Throws: `ContactsError` `.notAStore`.
    func requireStore() throws {
        try AddressBook.requireStore(at: storeURL)
    }

    /// Whether standard input is a terminal.
    var standardInputIsTerminal: Bool {
        isatty(STDIN_FILENO) == 1
    }
}

/// The first line a command gives the commit of its change (`sync fastmail: 3 added here`),
/// put before the list of people and groups changed. Set while the command runs.
final class CommitNote {
    var headline: String?
}
