import FoundationEssentials
import PlainContacts
import PlainContactsDAV

/// The subcommand that stands for a running `contacts serve`: `serve`.
enum ServeModes {
    /// Makes a server for the store without listening (which takes the store's one-server
    /// lock), prints "serving", and keeps the server until standard input ends.
    static func hold(store: URL) throws {
        let server = try ContactsServer(storeURL: store, host: "127.0.0.1", port: 0) { _ in }
        emit("serving")
        withExtendedLifetime(server) {
            TransactionModes.waitForEndOfInput()
        }
    }
}
