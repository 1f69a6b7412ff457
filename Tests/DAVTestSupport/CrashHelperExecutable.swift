import Foundation

/// The `plaincontacts-crash-helper` executable, built next to the test runner.
///
/// A test target that runs it depends on the helper's target, so SwiftPM builds it into the
/// same build products folder as the test runner; that folder is found from `/proc/self/exe`.
///
/// - Throws: ``TestSupportError`` when the helper is not built.
public func crashHelperExecutable() throws -> URL {
    let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var folder = runner.deletingLastPathComponent()
    // On Linux the runner may sit inside a `.xctest` bundle folder.
    if folder.pathExtension == "xctest" { folder = folder.deletingLastPathComponent() }
    let helper = folder.appending(path: "plaincontacts-crash-helper")
    let path = helper.path(percentEncoded: false)
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw TestSupportError("plaincontacts-crash-helper is missing at \(path); run `swift build --build-tests` first")
    }
    return helper
}
