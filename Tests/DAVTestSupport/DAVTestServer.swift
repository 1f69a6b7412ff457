import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A real CardDAV server for one test: Radicale 3.9 (without authentication, or with an
/// htpasswd file) or Xandikos 0.4 (`--defaults`: a principal `/user/` and an address book),
/// listening on 127.0.0.1 on a free port, its data in a fresh temporary folder.
///
/// The server can be killed (to test a server dying mid-sync) and restarted on the same port
/// and data; it is stopped and its folder removed in ``stop()`` or `deinit`.
///
/// ```swift
/// let server = try DAVTestServer(.radicale(password: "secret"))
/// let book = server.addressBookURL   // http://127.0.0.1:PORT/user/contacts/
/// server.kill()
/// try server.restart()
/// ```
public final class DAVTestServer {
    /// Which server, and how it authenticates.
    public enum Kind: Sendable {
        /// Radicale; with a password, users are checked against an htpasswd file holding
        /// ``DAVTestServer/user`` and that password; without one, any password is accepted.
        case radicale(password: String?)
        /// Xandikos with its default principal and address book; no authentication.
        case xandikos
    }

    /// How long a starting server may take to listen.
    public static let startTimeout: TimeInterval = 30
    /// How many ports are tried when another process takes the chosen one first.
    public static let portAttempts = 5

    /// The user the address book belongs to.
    public let user = "user"
    /// The password to send: the htpasswd one, or any for a server without authentication.
    public let password: String
    /// Which server this is.
    public let kind: Kind
    /// The port the server listens on, kept across restarts.
    public private(set) var port: Int = 0
    /// The folder of the server's configuration, data and log.
    public let folder: URL
    /// More users of Radicale's htpasswd file, by name, with their passwords.
    public let additionalUsers: [String: String]
    private var process: Process?

    /// Starts a server and, on Radicale, creates the address book collection of ``user``.
    ///
    /// `additionalUsers` go into Radicale's htpasswd file beside ``user``, without address
    /// books; they need a `.radicale` kind with a password.
    ///
    /// - Throws: ``DAVTestServerError`` when the server is not installed or does not start.
    public init(_ kind: Kind, additionalUsers: [String: String] = [:]) throws {
        self.kind = kind
        self.additionalUsers = additionalUsers
        if case .radicale(let password?) = kind { self.password = password } else { self.password = "any-password" }
        folder = FileManager.default.temporaryDirectory
            .appending(path: "DAVTestServer-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lastError: (any Error)?
        for _ in 0..<Self.portAttempts {
            do {
                port = try Self.freePort()
                try launch()
                lastError = nil
                break
            } catch {
                lastError = error
                kill()
            }
        }
        if let lastError {
            stop()
            throw lastError
        }
        if case .radicale = kind {
            try createAddressBook()
        }
    }

    deinit {
        stop()
    }

    /// The server's root URL, such as `http://127.0.0.1:PORT/`.
    public var baseURL: URL {
        Self.url("http://127.0.0.1:\(port)/")
    }

    /// The address book collection's URL.
    public var addressBookURL: URL {
        switch kind {
        case .radicale: Self.url("http://127.0.0.1:\(port)/\(user)/contacts/")
        case .xandikos: Self.url("http://127.0.0.1:\(port)/user/contacts/addressbook/")
        }
    }

    /// Kills the server at once (`SIGKILL`), as a crash would.
    public func kill() {
        guard let process else { return }
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        self.process = nil
    }

    /// Starts the server again on the same port and data.
    ///
    /// - Throws: ``DAVTestServerError`` when it does not start.
    public func restart() throws {
        kill()
        let deadline = Date().addingTimeInterval(Self.startTimeout)
        while true {
            do {
                try launch()
                return
            } catch where Date() < deadline {
                kill()
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// Stops the server and removes its folder.
    public func stop() {
        kill()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the process and waits until it accepts connections.
    private func launch() throws {
        let process = Process()
        process.executableURL = try DAVServerInstallation.executable(executableName)
        process.arguments = try arguments()
        let log = folder.appending(path: "server.log")
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(Self.startTimeout)
        while !Self.accepts(port: port) {
            guard process.isRunning else {
                throw DAVTestServerError("\(executableName) exited on start; see \(log.path)")
            }
            guard Date() < deadline else {
                throw DAVTestServerError("\(executableName) did not listen within \(Self.startTimeout) s; see \(log.path)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private var executableName: String {
        switch kind {
        case .radicale: "radicale"
        case .xandikos: "xandikos"
        }
    }

    /// The command line, writing Radicale's configuration and htpasswd file first.
    private func arguments() throws -> [String] {
        let data = folder.appending(path: "data").path
        switch kind {
        case .xandikos:
            return ["--defaults", "-d", data, "-l", "127.0.0.1", "-p", "\(port)"]
        case .radicale(let password):
            var auth = "type = none"
            if let password {
                let htpasswd = folder.appending(path: "htpasswd")
                let others = additionalUsers.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)\n" }
                try Data(("\(user):\(password)\n" + others.joined()).utf8).write(to: htpasswd)
                auth = "type = htpasswd\nhtpasswd_filename = \(htpasswd.path)\nhtpasswd_encryption = plain"
            }
            let config = """
                [server]
                hosts = 127.0.0.1:\(port)
                [auth]
                \(auth)
                [storage]
                filesystem_folder = \(data)
                [logging]
                level = warning
                """
            let file = folder.appending(path: "radicale.conf")
            try Data(config.utf8).write(to: file)
            return ["--config", file.path]
        }
    }

    /// Creates Radicale's address book with an extended `MKCOL` (RFC 5689).
    private func createAddressBook() throws {
        var request = URLRequest(url: addressBookURL)
        request.httpMethod = "MKCOL"
        request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type")
        request.setValue(
            "Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.httpBody = Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>
            <d:resourcetype><d:collection/><c:addressbook/></d:resourcetype><d:displayname>Contacts</d:displayname>
            </d:prop></d:set></d:mkcol>
            """.utf8)
        let status = try Self.status(of: request)
        guard status == 201 else {
            throw DAVTestServerError("creating the address book answered HTTP \(status)")
        }
    }

    /// The status of one request, waited for.
    private static func status(of request: URLRequest) throws -> Int {
        let done = DispatchSemaphore(value: 0)
        let result = StatusBox()
        URLSession.shared.dataTask(with: request) { _, response, _ in
            result.status = (response as? HTTPURLResponse)?.statusCode
            done.signal()
        }.resume()
        done.wait()
        guard let status = result.status else { throw DAVTestServerError("the server did not answer") }
        return status
    }

    // @unchecked: written by the completion handler before the semaphore is signalled, read after.
    private final class StatusBox: @unchecked Sendable {
        var status: Int?
    }

    private static func url(_ string: String) -> URL {
        URL(string: string) ?? URL(fileURLWithPath: "/")
    }

    /// A port no one listens on now, as the system hands one out for port 0.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DAVTestServerError("socket failed") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { throw DAVTestServerError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1 at `port`.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
