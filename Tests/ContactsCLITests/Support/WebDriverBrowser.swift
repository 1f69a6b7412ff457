import Foundation
import DAVTestSupport
import Glibc

/// Headless Chromium driven over WebDriver (W3C) through Debian's `chromedriver`, for the end-to-end
/// tests of the web pages: started on a free loopback port with a fresh profile, every address
/// but 127.0.0.1 sent to a proxy where nothing listens, and quit at the end.
///
/// ```swift
/// let browser = try WebDriverBrowser(profile: sandbox.temporary)
/// defer { browser.quit() }
/// try browser.go(to: server.url.appending(path: "web/"))
/// try browser.type("kim", into: "#user")
/// ```
final class WebDriverBrowser {
    static let chromium = "/usr/bin/chromium"
    static let driver = "/usr/bin/chromedriver"
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: driver)
    }
    static let installHint = "Chromium and its WebDriver are not installed: apt-get install chromium chromium-driver"
    /// The key W3C WebDriver names an element by in its answers.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let pid: pid_t
    private let connection: RawHTTPConnection
    private var session = ""

    /// Starts the driver and a browser session whose profile lives in `profile`.
    init(profile: URL) throws {
        let port = try Self.freePort()
        connection = RawHTTPConnection(port: port)
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let log = profile.appending(path: "chromedriver.log").path(percentEncoded: false)
        pid = try ChildProcess.spawn(
            [Self.driver, "--port=\(port)", "--allowed-ips=127.0.0.1"], environment: ProcessInfo.processInfo.environment,
            output: log, errors: log)
        let ready = ContinuousClock.now + .seconds(20)
        var lastError: (any Error)?
        while true {
            do {
                _ = try request("GET", "/status")
                break
            } catch {
                lastError = error
            }
            guard ContinuousClock.now < ready else {
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw Failure(description: "chromedriver did not start (\(String(describing: lastError))): \(said)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-extensions", "--proxy-server=127.0.0.1:9", "--window-size=1280,900",
            "--user-data-dir=" + profile.appending(path: "chromium-profile").path(percentEncoded: false),
        ]
        let capabilities: [String: Any] = [
            "capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": ["binary": Self.chromium, "args": arguments]]],
        ]
        let created = try request("POST", "/session", capabilities)
        guard let value = created["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            throw Failure(description: "no session: \(created)")
        }
        session = id
    }

    deinit { quit() }

    /// Ends the session and the driver.
    func quit() {
        guard pid > 0, kill(pid, 0) == 0 else { return }
        if !session.isEmpty { _ = try? request("DELETE", "/session/\(session)") }
        kill(pid, SIGTERM)
        _ = try? ChildProcess.wait(pid, program: Self.driver)
    }

    // MARK: Commands

    func go(to url: URL) throws {
        try command("POST", "url", ["url": url.absoluteString])
    }

    func go(to url: String) throws {
        try command("POST", "url", ["url": url])
    }

    var title: String {
        get throws { try command("GET", "title") as? String ?? "" }
    }

    var currentURL: String {
        get throws { try command("GET", "url") as? String ?? "" }
    }

    /// The text of the whole page, as shown.
    var pageText: String {
        get throws { try text(of: "body") }
    }

    /// The id of the first element matching the CSS selector.
    func element(_ selector: String) throws -> String {
        let found = try command("POST", "element", ["using": "css selector", "value": selector])
        guard let element = (found as? [String: Any])?[Self.elementKey] as? String else {
            throw Failure(description: "no element matches \(selector): \(String(describing: found))")
        }
        return element
    }

    /// How many elements match the CSS selector.
    func count(_ selector: String) throws -> Int {
        (try command("POST", "elements", ["using": "css selector", "value": selector]) as? [Any])?.count ?? 0
    }

    func text(of selector: String) throws -> String {
        try command("GET", "element/\(try element(selector))/text") as? String ?? ""
    }

    func attribute(_ name: String, of selector: String) throws -> String? {
        try command("GET", "element/\(try element(selector))/attribute/\(name)") as? String
    }

    func type(_ text: String, into selector: String) throws {
        try command("POST", "element/\(try element(selector))/value", ["text": text])
    }

    func click(_ selector: String) throws {
        try command("POST", "element/\(try element(selector))/click", [:])
    }

    /// Sets the window's size, as a phone's or a desktop's screen.
    func resize(width: Int, height: Int) throws {
        try command("POST", "window/rect", ["width": width, "height": height])
    }

    /// Saves a PNG of the window in `file`.
    func screenshot(to file: URL) throws {
        guard let encoded = try command("GET", "screenshot") as? String, let data = Data(base64Encoded: encoded) else {
            throw Failure(description: "no screenshot")
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// Waits until `condition` holds, for `timeout` at most.
    func wait(_ what: String, timeout: Duration = .seconds(10), until condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while !((try? condition()) ?? false) {
            guard ContinuousClock.now < deadline else { throw Failure(description: "timed out waiting for \(what)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Scrolls the page to its end, as a reader reaching the bottom of a list does.
    func scrollToEnd() throws {
        try command("POST", "execute/sync", ["script": "window.scrollTo(0, document.body.scrollHeight);", "args": [Any]()])
    }

    // MARK: Protocol

    /// Sends a command of the session and gives its answer's value.
    ///
    /// - Throws: ``Failure`` naming the error WebDriver answered.
    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        let answer = try request(method, "/session/\(session)/\(path)", body)
        if let error = (answer["value"] as? [String: Any])?["error"] as? String {
            throw Failure(description: "\(method) \(path): \(error): \((answer["value"] as? [String: Any])?["message"] ?? "")")
        }
        return answer["value"]
    }

    private func request(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        let headers = body == nil ? [:] : ["Content-Type": "application/json"]
        let response = try connection.send(method, path, headers: headers, body: data)
        return try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
    }

    /// A loopback port nothing listens on now.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
