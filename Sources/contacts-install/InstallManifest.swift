import Foundation

/// What an install put under a prefix, kept at `PREFIX/share/contacts/install-manifest` so
/// that uninstalling removes exactly that: the files it wrote, and the folders it created,
/// once they are empty again.
///
/// One entry a line, paths relative to the prefix: `file bin/contacts`, `folder share/zsh`.
/// Folders are listed in the order they were created, parents first.
///
/// ```swift
/// var manifest = InstallManifest()
/// manifest.files.append("bin/contacts")
/// try InstallManifest(parsing: manifest.text) == manifest   // true
/// ```
struct InstallManifest: Equatable {
    /// Where the manifest is, under the prefix.
    static let path = "share/contacts/install-manifest"

    /// The files written, relative to the prefix.
    var files: [String] = []
    /// The folders created, parents first, relative to the prefix.
    var folders: [String] = []

    /// An empty manifest.
    init() {}

    /// The manifest written as `text`.
    ///
    /// - Throws: ``InstallError`` for a line that is not an entry.
    init(parsing text: String) throws {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("file ") {
                files.append(String(line.dropFirst(5)))
            } else if line.hasPrefix("folder ") {
                folders.append(String(line.dropFirst(7)))
            } else {
                throw InstallError("the install manifest has a line that is not an entry: \(line.prefix(80))")
            }
        }
        guard (files + folders).allSatisfy(Self.isSafe) else {
            throw InstallError("the install manifest names a path outside the prefix")
        }
    }

    /// The manifest as its file holds it.
    var text: String {
        (folders.map { "folder \($0)\n" } + files.map { "file \($0)\n" }).joined()
    }

    /// The union of an earlier install's manifest and this one's: an upgrade keeps the
    /// folders the first install created, so that uninstalling still removes them.
    func merged(after earlier: InstallManifest) -> InstallManifest {
        var merged = InstallManifest()
        merged.folders = earlier.folders + folders.filter { !earlier.folders.contains($0) }
        merged.files = earlier.files + files.filter { !earlier.files.contains($0) }
        return merged
    }

    /// Whether `path` stays inside the prefix: relative, without `..`.
    private static func isSafe(_ path: String) -> Bool {
        !path.hasPrefix("/") && !path.split(separator: "/").contains("..") && !path.isEmpty
    }
}
