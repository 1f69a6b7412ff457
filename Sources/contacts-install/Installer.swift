import Foundation

/// Installs `contacts` under a prefix, or removes what an earlier install put there.
///
/// Every file is written under `DESTDIR/PREFIX` and nowhere else; the files that name a path
/// (the systemd units) name it under `PREFIX`, where the files will be at run time. The
/// manual pages and completion scripts are printed by the `contacts` being installed
/// (`contacts manual`, `contacts completion`), so they describe exactly that build.
///
/// ```swift
/// try Installer(options: options) { print($0) }.install()
/// ```
struct Installer {
    let options: InstallOptions
    /// Where progress is reported.
    let log: (String) -> Void

    /// The folder the files are written under: the prefix inside the staging root.
    var root: URL {
        let prefix = URL(filePath: options.prefix, directoryHint: .isDirectory)
        guard !options.destdir.isEmpty else { return prefix }
        return URL(filePath: options.destdir, directoryHint: .isDirectory).appending(path: String(options.prefix.dropFirst()), directoryHint: .isDirectory)
    }

    /// Builds (unless a binary was given) and installs.
    ///
    /// - Throws: ``InstallError`` when the build, a `contacts` run or a write fails.
    func install() throws {
        let binary = try options.binary ?? buildRelease()
        let files = try contents(of: binary)
        let earlier = try readManifest()
        var manifest = InstallManifest()
        try makeFolders(for: InstallManifest.path, manifest: &manifest)
        for file in files {
            try makeFolders(for: file.path, manifest: &manifest)
            try write(file.data, to: file.path, mode: file.mode)
            manifest.files.append(file.path)
            log("installed \(options.prefix)/\(file.path)")
        }
        manifest = earlier.map { manifest.merged(after: $0) } ?? manifest
        try write(Data(manifest.text.utf8), to: InstallManifest.path, mode: 0o644)
    }

    /// Removes the files the manifest names, the manifest, and the folders the installs
    /// created that are empty again.
    ///
    /// - Throws: ``InstallError`` when nothing was installed there, or a removal fails.
    func uninstall() throws {
        guard let manifest = try readManifest() else {
            throw InstallError("nothing was installed in \(options.prefix) by contacts-install (no \(InstallManifest.path))")
        }
        for file in manifest.files + [InstallManifest.path] {
            let path = root.appending(path: file).path(percentEncoded: false)
            if unlink(path) != 0 && errno != ENOENT {
                throw InstallError("cannot remove \(path): \(String(cString: strerror(errno)))")
            }
            log("removed \(options.prefix)/\(file)")
        }
        for folder in manifest.folders.reversed() {
            // A folder something else put a file in meanwhile stays.
            if rmdir(root.appending(path: folder).path(percentEncoded: false)) == 0 {
                log("removed \(options.prefix)/\(folder)/")
            }
        }
    }

    /// Every file to install: its path under the prefix, its bytes and its mode.
    private func contents(of binary: String) throws -> [(path: String, data: Data, mode: mode_t)] {
        var files: [(path: String, data: Data, mode: mode_t)] = []
        guard let program = FileManager.default.contents(atPath: binary) else { throw InstallError("cannot read \(binary)") }
        files.append(("bin/contacts", program, 0o755))
        let pages = String(decoding: try run(binary, ["manual"]), as: UTF8.self).split(separator: "\n").map(String.init)
        for page in pages {
            guard let section = page.split(separator: ".").last, section.allSatisfy(\.isNumber) else { continue }
            files.append(("share/man/man\(section)/\(page)", try run(binary, ["manual", page]), 0o644))
        }
        let completions = [
            ("bash", "share/bash-completion/completions/contacts"), ("zsh", "share/zsh/site-functions/_contacts"),
            ("fish", "share/fish/vendor_completions.d/contacts.fish"),
        ]
        for (shell, path) in completions {
            files.append((path, try run(binary, ["completion", shell]), 0o644))
        }
        for unit in SystemdUnits(contacts: options.prefix + (options.prefix.hasSuffix("/") ? "" : "/") + "bin/contacts").files {
            files.append((unit.path, Data(unit.text.utf8), 0o644))
        }
        return files
    }

    /// Builds a release of `contacts` with the Swift standard library linked in, and gives its path.
    private func buildRelease() throws -> String {
        let arguments = ["build", "-c", "release", "--static-swift-stdlib", "--product", "contacts", "--package-path", options.packagePath]
        log("building: swift \(arguments.joined(separator: " "))")
        let started = ContinuousClock.now
        _ = try run("/usr/bin/env", ["swift"] + arguments, passOutput: true)
        log("built in \((ContinuousClock.now - started).components.seconds) s")
        let folder = String(decoding: try run("/usr/bin/env", ["swift"] + arguments + ["--show-bin-path"]), as: UTF8.self)
        return folder.trimmingCharacters(in: .whitespacesAndNewlines) + "/contacts"
    }

    /// The earlier install's manifest, or `nil` when there is none.
    private func readManifest() throws -> InstallManifest? {
        let path = root.appending(path: InstallManifest.path).path(percentEncoded: false)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try InstallManifest(parsing: String(decoding: data, as: UTF8.self))
    }

    /// Creates the folders under the root that `path` needs, noting them in `manifest`.
    private func makeFolders(for path: String, manifest: inout InstallManifest) throws {
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += (folder.isEmpty ? "" : "/") + component
            let url = root.appending(path: folder, directoryHint: .isDirectory)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw InstallError("\(url.path(percentEncoded: false)) is not a folder") }
                continue
            }
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw InstallError("cannot create \(url.path(percentEncoded: false)): \(error.localizedDescription)")
            }
            manifest.folders.append(folder)
        }
    }

    /// Writes `data` at `path` under the root: a new file beside it, renamed over the old one.
    private func write(_ data: Data, to path: String, mode: mode_t) throws {
        let target = root.appending(path: path)
        let temporary = target.deletingLastPathComponent().appending(path: ".\(target.lastPathComponent).new")
        do {
            try data.write(to: temporary)
            guard chmod(temporary.path(percentEncoded: false), mode) == 0,
                rename(temporary.path(percentEncoded: false), target.path(percentEncoded: false)) == 0
            else { throw InstallError(String(cString: strerror(errno))) }
        } catch {
            unlink(temporary.path(percentEncoded: false))
            throw InstallError("cannot write \(target.path(percentEncoded: false)): \(error)")
        }
    }

    /// Runs `program` with `arguments` and gives its standard output; with `passOutput`, the
    /// output goes to this process's instead.
    ///
    /// - Throws: ``InstallError`` when it cannot start or exits with another status than 0.
    private func run(_ program: String, _ arguments: [String], passOutput: Bool = false) throws -> Data {
        let process = Process()
        process.executableURL = URL(filePath: program)
        process.arguments = arguments
        let pipe = Pipe()
        if !passOutput { process.standardOutput = pipe }
        do {
            try process.run()
        } catch {
            throw InstallError("cannot run \(program): \(error.localizedDescription)")
        }
        let output = passOutput ? Data() : pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw InstallError("\(([program] + arguments).joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
        return output
    }
}
