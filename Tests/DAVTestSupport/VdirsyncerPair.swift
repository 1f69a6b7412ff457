import Foundation

/// vdirsyncer 0.21 (from `.venv-dav`), or another vdirsyncer such as Debian's 0.19, pairing a
/// vdir (a folder of `.vcf` files) with one CardDAV address book: its configuration written
/// into a folder of its own, then `discover` and `sync` run as a user runs them. Both versions
/// read the same configuration.
///
/// ```swift
/// let pair = try VdirsyncerPair(folder: folder, addressBook: url, user: "user", password: "secret")
/// try pair.sync()
/// let names = try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path)
/// let debian = try VdirsyncerPair(
///     folder: other, addressBook: url, user: "user", password: "secret", program: URL(filePath: "/usr/bin/vdirsyncer"))
/// ```
public struct VdirsyncerPair: Sendable {
    /// The vdir: one `.vcf` file per card.
    public let vdir: URL
    /// The configuration file.
    public let configuration: URL
    /// The vdirsyncer program.
    public let program: URL

    /// The outcome of one vdirsyncer run.
    public struct Run: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output and standard error together.
        public var output: String
        /// Wall-clock seconds.
        public var seconds: Double
    }

    /// Writes the configuration under `folder` (the vdir, the status folder and the file) and
    /// runs `vdirsyncer discover` with `program`, `.venv-dav`'s vdirsyncer when it is `nil`.
    ///
    /// - Throws: ``DAVTestServerError`` when vdirsyncer is missing or `discover` fails.
    public init(folder: URL, addressBook: URL, user: String, password: String, program: URL? = nil) throws {
        self.program = try program ?? DAVServerInstallation.executable("vdirsyncer")
        vdir = folder.appending(path: "vdir", directoryHint: .isDirectory)
        let status = folder.appending(path: "vdirsyncer-status", directoryHint: .isDirectory)
        for created in [vdir, status] { try FileManager.default.createDirectory(at: created, withIntermediateDirectories: true) }
        configuration = folder.appending(path: "vdirsyncer.conf")
        try Data("""
            [general]
            status_path = "\(status.path)/"

            [pair contacts]
            a = "local"
            b = "remote"
            collections = null
            conflict_resolution = "b wins"

            [storage local]
            type = "filesystem"
            path = "\(vdir.path)/"
            fileext = ".vcf"

            [storage remote]
            type = "carddav"
            url = "\(addressBook.absoluteString)"
            username = "\(user)"
            password = "\(password)"

            """.utf8).write(to: configuration)
        let discovered = try run(["discover"])
        guard discovered.status == 0 else {
            throw DAVTestServerError("vdirsyncer discover failed (\(discovered.status)): \(discovered.output)")
        }
    }

    /// Runs `vdirsyncer sync` (with `--force-delete` when asked: vdirsyncer refuses to carry
    /// the removal of every card of one side without it).
    ///
    /// - Throws: when vdirsyncer cannot be started.
    @discardableResult
    public func sync(forceDelete: Bool = false) throws -> Run {
        try run(forceDelete ? ["sync", "--force-delete"] : ["sync"])
    }

    /// Runs vdirsyncer with `arguments` and this pair's configuration.
    ///
    /// - Throws: when vdirsyncer cannot be started.
    public func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["VDIRSYNCER_CONFIG"] = configuration.path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), seconds: seconds)
    }
}
