import Foundation

/// Where the CardDAV servers the tests start are installed: the virtual environment
/// `.venv-dav` at the package root, made by `.ci/install-dav-servers`.
///
/// When it is missing, the script is run once (under `flock`, since test processes run in
/// parallel), so that `swift test` works on a fresh machine with Python and network access.
///
/// ```swift
/// let radicale = try DAVServerInstallation.executable("radicale")
/// ```
public enum DAVServerInstallation {
    /// The package's root folder, found from this file's path.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The virtual environment's folder.
    public static var environment: URL { packageRoot.appending(path: ".venv-dav", directoryHint: .isDirectory) }

    /// What to do when the servers cannot be installed.
    public static let installHint =
        "the CardDAV servers for the tests are missing: run .ci/install-dav-servers (needs python3 with venv and access to PyPI)"

    private static let installation = Installation()

    /// The path of a program of the environment (`radicale`, `xandikos`, `vdirsyncer`),
    /// installing the environment first when it is missing.
    ///
    /// - Throws: ``DAVTestServerError`` saying how to install the servers when they cannot be.
    public static func executable(_ name: String) throws -> URL {
        let program = environment.appending(path: "bin/\(name)")
        if !FileManager.default.isExecutableFile(atPath: program.path) {
            installation.installOnce()
        }
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            throw DAVTestServerError("\(name): \(installHint)")
        }
        return program
    }

    /// The environment's Python, after checking that it can import `module` (`icalendar`),
    /// installing the environment first when it cannot.
    ///
    /// ```swift
    /// let python = try DAVServerInstallation.python(importing: "icalendar")
    /// ```
    ///
    /// - Throws: ``DAVTestServerError`` saying how to install it when it cannot be.
    public static func python(importing module: String) throws -> URL {
        let python = environment.appending(path: "bin/python")
        if !canImport(module, with: python) {
            installation.installOnce()
        }
        guard canImport(module, with: python) else {
            throw DAVTestServerError("python module \(module): \(installHint)")
        }
        return python
    }

    /// Whether `python` runs and imports `module`.
    private static func canImport(_ module: String, with python: URL) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", "import \(module)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return false
        }
        return process.terminationStatus == 0
    }

    /// Runs the install script at most once per test process.
    // @unchecked: `attempted` is read and written under `lock`.
    private final class Installation: @unchecked Sendable {
        private let lock = NSLock()
        private var attempted = false

        func installOnce() {
            lock.withLock {
                guard !attempted else { return }
                attempted = true
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    "flock", packageRoot.appending(path: ".venv-dav.lock").path,
                    packageRoot.appending(path: ".ci/install-dav-servers").path,
                ]
                process.standardOutput = FileHandle.standardError
                do {
                    try process.run()
                    process.waitUntilExit()
                } catch {
                    return
                }
            }
        }
    }
}

/// A test server that could not be installed, started or reached.
public struct DAVTestServerError: Error, CustomStringConvertible {
    /// What failed and how to fix it.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
