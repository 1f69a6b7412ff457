import Foundation

/// The fixture files every test target reads, kept in one place:
/// `Tests/PlainContactsTests/Fixtures`, found from this source file's path.
///
/// ```swift
/// let cards = TestFixtures.folder.appending(path: "vcards", directoryHint: .isDirectory)
/// ```
public enum TestFixtures {
    /// The fixtures folder: `vcards` (cards gathered from other programs' tests and real
    /// exports) and `exports` (the other formats `contacts import` reads).
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DAVTestSupport
        .deletingLastPathComponent()  // Tests
        .appending(path: "PlainContactsTests/Fixtures", directoryHint: .isDirectory)
}
