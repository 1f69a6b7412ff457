import Foundation

/// The vCard files of a folder, as khard, vdirsyncer, Radicale and phone backups keep them:
/// one card per file, in subfolders too.
///
/// ```swift
/// let files = try VCardFolder.files(in: "~/.contacts/default")   // sorted paths
/// ```
enum VCardFolder {
    /// The file name endings taken, compared without case.
    static let extensions: Set<String> = ["vcf", "vcard"]

    /// Every `*.vcf` and `*.vcard` file under `folder`, in sorted order, leaving out files and
    /// folders whose names begin with a dot (Radicale's `.Radicale.cache`, Git's `.git`).
    ///
    /// - Throws: `CLIError` naming a folder that cannot be read.
    static func files(in folder: String) throws(CLIError) -> [String] {
        var found: [String] = []
        try collect(folder, into: &found)
        return found
    }

    private static func collect(_ folder: String, into found: inout [String]) throws(CLIError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw CLIError.noInput("\(folder): cannot read this folder")
        }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                try collect(path, into: &found)
            } else if let dot = name.lastIndex(of: "."), extensions.contains(name[name.index(after: dot)...].lowercased()) {
                found.append(path)
            }
        }
    }
}
