import Foundation

/// Runs git with a fixed identity in `folder`.
///
/// - Throws: ``TestSupportError`` when git fails.
public func git(_ arguments: [String], in folder: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw TestSupportError("git \(arguments.joined(separator: " ")) failed") }
}
