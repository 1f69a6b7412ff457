import Foundation

/// A new folder holding `files` (relative path to text), for a test to measure.
func temporaryFolder(_ files: [String: String]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "ContactsBenchTests-\(UUID().uuidString)")
    for (path, text) in files {
        let file = url.appending(path: path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
    return url
}
