import Foundation
import Testing

extension Tag {
    /// A test that takes more than about two seconds alone (crash loops, thousands of files,
    /// many processes, watcher timing).
    @Tag public static var slow: Self
}

extension Trait where Self == ConditionTrait {
    /// Runs a test tagged ``Tag/slow`` unless `CONTACTS_SKIP_SLOW_TESTS` is set: `swift test`
    /// of Swift 6.3 cannot skip by tag (`--skip tag:slow` is read as a test name pattern).
    public static var slowTestsEnabled: Self {
        .enabled(if: ProcessInfo.processInfo.environment["CONTACTS_SKIP_SLOW_TESTS"] == nil, "CONTACTS_SKIP_SLOW_TESTS is set")
    }
}
