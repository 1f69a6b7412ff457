import Testing
@testable import contacts_install

/// The manifest an install leaves under the prefix, read back by uninstall.
@Suite struct InstallManifestTests {
    @Test func aManifestReadsBackAsWritten() throws {
        var manifest = InstallManifest()
        manifest.folders = ["share", "share/contacts"]
        manifest.files = ["bin/contacts", "share/man/man1/contacts.1"]
        #expect(try InstallManifest(parsing: manifest.text) == manifest)
    }

    @Test(arguments: ["file /etc/passwd\n", "file ../../etc/passwd\n", "folder share/../..\n", "rm -rf /\n"])
    func aManifestNamingAPathOutsideThePrefixIsRefused(text: String) {
        #expect(throws: InstallError.self) { try InstallManifest(parsing: text) }
    }

    @Test func anUpgradeKeepsTheFoldersTheFirstInstallCreated() {
        var first = InstallManifest()
        first.folders = ["share/zsh", "share/zsh/site-functions"]
        first.files = ["share/zsh/site-functions/_contacts"]
        var second = InstallManifest()
        second.files = ["share/zsh/site-functions/_contacts", "bin/contacts"]
        let merged = second.merged(after: first)
        #expect(merged.folders == ["share/zsh", "share/zsh/site-functions"])
        #expect(merged.files == ["share/zsh/site-functions/_contacts", "bin/contacts"])
    }

    @Test func optionsTakeThePrefixTheStagingRootAndDestdirFromTheEnvironment() throws {
        let options = try InstallOptions(["--prefix", "/opt/c", "--uninstall"], environment: ["DESTDIR": "/tmp/stage"])
        #expect(options.prefix == "/opt/c")
        #expect(options.destdir == "/tmp/stage")
        #expect(options.uninstall)
        #expect(throws: InstallError.self) { try InstallOptions(["--prefix"], environment: [:]) }
        #expect(throws: InstallError.self) { try InstallOptions(["--force"], environment: [:]) }
    }
}
