import Foundation
import Testing
@testable import contacts

/// `contacts-install` into a staging root, with the `contacts` the tests run, and back out.
@Suite struct InstallerTests {
    /// Every path under `folder`, relative to it, folders ending in `/`.
    private func tree(_ folder: URL) throws -> Set<String> {
        var paths = Set<String>()
        let base = folder.path(percentEncoded: false)
        guard let walker = FileManager.default.enumerator(atPath: base) else { return paths }
        while let path = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder)
            paths.insert(isFolder.boolValue ? path + "/" : path)
        }
        return paths
    }

    /// Runs the installer with `arguments`.
    private func install(_ arguments: [String], sandbox: CLISandbox) throws -> CLIResult {
        let binary = try ContactsBinary.url().path(percentEncoded: false)
        let result = try runProcess(
            try ContactsBinary.installerURL(), arguments + ["--binary", binary], environment: sandbox.baseEnvironment,
            in: sandbox.root, scratch: sandbox.temporary)
        return result
    }

    @Test func installWritesEverythingUnderTheStagingRootAndUninstallLeavesThePrefixAsItWas() throws {
        let sandbox = try CLISandbox()
        let stage = sandbox.root.appending(path: "stage", directoryHint: .isDirectory)
        let prefix = stage.appending(path: "usr/local", directoryHint: .isDirectory)
        // A prefix that already holds other programs' files and folders.
        try FileManager.default.createDirectory(at: prefix.appending(path: "share/man/man1"), withIntermediateDirectories: true)
        try Data("other\n".utf8).write(to: prefix.appending(path: "share/man/man1/other.1"))
        let before = try tree(stage)

        let installed = try install(["--prefix", "/usr/local", "--destdir", stage.path(percentEncoded: false)], sandbox: sandbox)
        try #require(installed.status == 0, "\(installed)")

        let after = try tree(stage)
        #expect(after.allSatisfy { $0.hasPrefix("usr/") })
        for name in ManualPages.names {
            let section = name.split(separator: ".").last.map(String.init) ?? ""
            #expect(after.contains("usr/local/share/man/man\(section)/\(name)"), "\(name) missing")
        }
        for path in [
            "usr/local/bin/contacts", "usr/local/share/bash-completion/completions/contacts", "usr/local/share/zsh/site-functions/_contacts",
            "usr/local/share/fish/vendor_completions.d/contacts.fish", "usr/local/share/systemd/user/contacts-serve.service",
            "usr/local/share/systemd/user/contacts-sync@.service", "usr/local/share/systemd/user/contacts-sync@.timer",
            "usr/local/share/systemd/user/contacts-watch.service",
            "usr/local/lib/systemd/system/contacts-serve.service", "usr/local/lib/systemd/system/contacts-sync@.service",
            "usr/local/lib/systemd/system/contacts-sync@.timer", "usr/local/share/contacts/install-manifest",
        ] {
            #expect(after.contains(path), "\(path) missing")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix.appending(path: "bin/contacts").path(percentEncoded: false)))
        let version = try runProcess(
            prefix.appending(path: "bin/contacts"), ["--version"], environment: sandbox.baseEnvironment, in: sandbox.root,
            scratch: sandbox.temporary)
        #expect(version.stdout.hasPrefix("contacts "))

        let removed = try install(["--prefix", "/usr/local", "--destdir", stage.path(percentEncoded: false), "--uninstall"], sandbox: sandbox)
        try #require(removed.status == 0, "\(removed)")
        #expect(try tree(stage) == before)
    }

    @Test func unitsNameTheInstalledProgramAndToleratePartialSyncs() throws {
        let sandbox = try CLISandbox()
        let stage = sandbox.root.appending(path: "stage", directoryHint: .isDirectory)
        try #require(try install(["--prefix", "/opt/contacts", "--destdir", stage.path(percentEncoded: false)], sandbox: sandbox).status == 0)
        let units = stage.appending(path: "opt/contacts")
        let serve = try String(contentsOf: units.appending(path: "share/systemd/user/contacts-serve.service"), encoding: .utf8)
        #expect(serve.contains("ExecStart=/opt/contacts/bin/contacts serve "))
        for line in ["NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes", "ProtectHome=read-only", "RestrictAddressFamilies="] {
            #expect(serve.contains(line), "\(line) missing")
        }
        let system = try String(contentsOf: units.appending(path: "lib/systemd/system/contacts-serve.service"), encoding: .utf8)
        #expect(system.contains("User=contacts"))
        #expect(system.contains("ProtectHome=yes"))
        #expect(system.contains("ReadWritePaths=/var/lib/contacts/book"))
        let sync = try String(contentsOf: units.appending(path: "share/systemd/user/contacts-sync@.service"), encoding: .utf8)
        #expect(sync.contains("ExecStart=/opt/contacts/bin/contacts sync %I"))
        #expect(sync.contains("SuccessExitStatus=75 69"))
        let timer = try String(contentsOf: units.appending(path: "share/systemd/user/contacts-sync@.timer"), encoding: .utf8)
        #expect(timer.contains("OnCalendar=*:0/15"))
        let watch = try String(contentsOf: units.appending(path: "share/systemd/user/contacts-watch.service"), encoding: .utf8)
        #expect(watch.contains("ExecStart=/opt/contacts/bin/contacts watch\n"))
        #expect(watch.contains("ReadWritePaths=%h/.local/share/contacts"))
    }

    @Test func uninstallingWhatWasNeverInstalledFails() throws {
        let sandbox = try CLISandbox()
        let result = try install(["--prefix", "/usr/local", "--destdir", sandbox.root.appending(path: "empty").path(percentEncoded: false), "--uninstall"], sandbox: sandbox)
        #expect(result.status == 1)
        #expect(result.stderr.contains("nothing was installed"))
    }

    @Test func aRelativePrefixIsRefused() throws {
        let sandbox = try CLISandbox()
        #expect(try install(["--prefix", "usr/local"], sandbox: sandbox).status == 1)
    }
}
