import PlainContacts

extension ContactsServer {
    /// What a server process started by a supervisor inherits from it: the listening sockets
    /// the supervisor bound, and the journal it reads the requests in progress from when the
    /// process dies.
    ///
    /// ```swift
    /// let inheritance = ContactsServer.Inheritance(listeningDescriptors: [3], journal: try HTTPRequestJournal(adopting: 4))
    /// let server = try ContactsServer(storeURL: store, host: "127.0.0.1", port: 5232, log: log, inheritance: inheritance)
    /// ```
    package struct Inheritance: Sendable {
        /// The environment variable that, in a server process started by a supervisor, names
        /// a path whose requests crash the process (`fatalError`): a testing aid, to show that a
        /// crash is survived. No request can set it; unset in normal use.
        package static let crashPathVariable = "CONTACTS_SERVE_TEST_CRASH_PATH"

        /// The inherited listening sockets, served on instead of binding.
        package var listeningDescriptors: [Int32]
        /// Where requests are marked while they are handled; `nil` for none.
        package var journal: HTTPRequestJournal?
        /// The path whose requests crash the process (``crashPathVariable``); `nil` in normal use.
        package var crashPath: String?

        /// The inheritance of a server process.
        package init(listeningDescriptors: [Int32], journal: HTTPRequestJournal?, crashPath: String? = nil) {
            self.listeningDescriptors = listeningDescriptors
            self.journal = journal
            self.crashPath = crashPath
        }
    }

    /// The listening sockets of `host` and `port` as a server binds them, for a supervisor to
    /// hand on to the server processes it starts: close-on-exec and non-blocking, bound and
    /// listening, so that clients queue in their backlog while no process accepts.
    ///
    /// ```swift
    /// let sockets = try ContactsServer.openListeningSockets(host: "localhost", port: 0) { print($0) }
    /// print(sockets.port)   // the same port for 127.0.0.1 and ::1
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` for a host that is not an IP address or
    ///   `localhost`; ``ContactsError/Code/busy`` when the address is in use;
    ///   ``ContactsError/Code/permissionDenied`` for a port the process may not take;
    ///   ``ContactsError/Code/io`` for other failures.
    package static func openListeningSockets(
        host: String, port: UInt16, log: (String) -> Void
    ) throws(ContactsError) -> (descriptors: [Int32], port: UInt16) {
        do {
            let listeners = try HTTPServer.openListeners(host: host, port: port, log: log)
            return (listeners.map(\.descriptor), listeners.first?.port ?? port)
        } catch {
            throw contactsError(error, host: host)
        }
    }
}
