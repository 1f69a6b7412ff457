import DAVTestSupport
import Foundation
import Glibc
import PlainContacts

/// Headless Chromium driven over WebDriver (W3C, plain HTTP and JSON to `chromedriver`), for
/// the browser's figures of ``WebBench``: how long a load of the people page takes to draw
/// the list, read from the page's own paint and navigation timing.
///
/// The driver listens on a free loopback port; the browser has a fresh profile and sends
/// every address but 127.0.0.1 to a proxy where nothing listens.
///
/// ```swift
/// if let browser = HeadlessBrowser.installed {
///     let loads = try browser.timePeoplePage(signIn: signIn, page: page, lines: 200, loads: 5, profile: folder)
/// }
/// ```
struct HeadlessBrowser {
    /// The browser.
    var chromium: String
    /// Its WebDriver.
    var driver: String

    /// How long the driver may take to answer its first request.
    static let driverStartTimeout: Duration = .seconds(30)
    /// How long a drawn page may take to report its first contentful paint.
    static let paintTimeout: Duration = .seconds(10)

    /// What the output says when the browser's figures are left out.
    static let missing =
        "Chromium and chromedriver were not found on the PATH (apt-get install chromium chromium-driver): "
        + "the browser's figures are skipped."

    /// The Chromium and chromedriver on the `PATH`, or `nil` when either is missing.
    static var installed: HeadlessBrowser? {
        guard let chromium = ChildProcess.findExecutable("chromium"), let driver = ChildProcess.findExecutable("chromedriver")
        else { return nil }
        return HeadlessBrowser(chromium: chromium, driver: driver)
    }

    /// One load of the page, in seconds from the navigation's start.
    struct Load {
        /// The first contentful paint: the list drawn, the page being text.
        var firstContentfulPaint: Double
        /// The end of the `DOMContentLoaded` handlers (the script's set-up included).
        var domContentLoaded: Double
        /// The end of the `load` handlers.
        var loaded: Double
        /// The page's bytes as sent (`encodedBodySize`).
        var bytes: Int
    }

    /// The script that reads a load's timing and counts the list's lines.
    static let timingScript = """
        const navigation = performance.getEntriesByType("navigation")[0];
        const paint = performance.getEntriesByType("paint").find((entry) => entry.name === "first-contentful-paint");
        return {
          paint: paint ? paint.startTime : -1,
          ready: navigation ? navigation.domContentLoadedEventEnd : -1,
          load: navigation ? navigation.loadEventEnd : -1,
          bytes: navigation ? navigation.encodedBodySize : 0,
          lines: document.querySelectorAll("#people ul.people > li > a").length
        };
        """

    /// Opens `signIn` once (where the server sets the session cookie and sends the browser
    /// on to the list, which warms the browser too), then loads `page` `loads` times, each
    /// load checked to show `lines` people.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the driver does not start, a command fails or
    ///   a load shows another number of people.
    func timePeoplePage(signIn: String, page: String, lines: Int, loads: Int, profile: URL) throws -> [Load] {
        Progress.note("Chromium: \(loads) loads of the people page")
        let session = try Session(self, profile: profile)
        defer { session.quit() }
        try session.command("POST", "url", ["url": signIn])
        var timings: [Load] = []
        for _ in 0..<loads {
            try session.command("POST", "url", ["url": page])
            let deadline = ContinuousClock.now + Self.paintTimeout
            while true {
                let value = try session.command("POST", "execute/sync", ["script": Self.timingScript, "args": [Any]()])
                let timing = value as? [String: Any] ?? [:]
                let number = { (key: String) in (timing[key] as? NSNumber)?.doubleValue ?? -1 }
                if number("paint") >= 0, number("load") > 0 {
                    guard Int(number("lines")) == lines else {
                        throw ContactsError(.io, "the browser drew \(Int(number("lines"))) people instead of \(lines)")
                    }
                    timings.append(
                        Load(
                            firstContentfulPaint: number("paint") / 1000, domContentLoaded: number("ready") / 1000,
                            loaded: number("load") / 1000, bytes: Int(number("bytes"))))
                    break
                }
                guard ContinuousClock.now < deadline else { throw ContactsError(.io, "the browser reported no paint of the page") }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        return timings
    }

    /// One WebDriver session: the driver's process and the browser it started.
    final class Session {
        private let pid: pid_t
        private let connection: RawHTTPConnection
        private var id = ""

        /// Starts the driver on a free port and a browser with a profile under `profile`.
        ///
        /// - Throws: ``ContactsError/Code/io`` when either does not start.
        init(_ browser: HeadlessBrowser, profile: URL) throws {
            let port = try Self.freePort()
            connection = RawHTTPConnection(port: port)
            try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            pid = try ChildProcess.start(browser.driver, ["--port=\(port)", "--allowed-ips=127.0.0.1"])
            let ready = ContinuousClock.now + HeadlessBrowser.driverStartTimeout
            while (try? request("GET", "/status")) == nil {
                guard ContinuousClock.now < ready, kill(pid, 0) == 0 else {
                    quit()
                    throw ContactsError(.io, "chromedriver did not start")
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            let arguments = [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--proxy-server=127.0.0.1:9", "--window-size=1280,900",
                "--user-data-dir=" + profile.appending(path: "chromium-profile").path(percentEncoded: false),
            ]
            let options: [String: Any] = ["binary": browser.chromium, "args": arguments]
            let created = try request(
                "POST", "/session", ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]])
            guard let value = created["value"] as? [String: Any], let session = value["sessionId"] as? String else {
                quit()
                throw ContactsError(.io, "chromedriver opened no browser session")
            }
            id = session
        }

        /// Ends the session and the driver.
        func quit() {
            if !id.isEmpty { _ = try? request("DELETE", "/session/\(id)") }
            id = ""
            guard pid > 0, kill(pid, 0) == 0 else { return }
            kill(pid, SIGTERM)
            ChildProcess.wait(for: pid)
        }

        /// Sends a command of the session and gives its answer's value.
        ///
        /// - Throws: ``ContactsError/Code/io`` naming the error WebDriver answered.
        @discardableResult
        func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
            let answer = try request(method, "/session/\(id)/\(path)", body)
            if let error = (answer["value"] as? [String: Any])?["error"] as? String {
                throw ContactsError(.io, "WebDriver \(method) \(path): \(error)")
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
            guard socket >= 0 else { throw ContactsError(.io, "no socket for a free port") }
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
                }
            }
            guard bound else { throw ContactsError(.io, "no free loopback port") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
