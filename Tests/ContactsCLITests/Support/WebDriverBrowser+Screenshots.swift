import Foundation

/// The screenshots the browser tests of the web pages save, at a phone's width and a desktop's,
/// under `.build/web-screenshots/`.
extension WebDriverBrowser {
    /// Where the screenshots go: the package's `.build` folder.
    static let screenshots = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: ".build/web-screenshots")

    /// Saves the page at a phone's width and at a desktop's, as `NAME-phone.png` and
    /// `NAME-desktop.png`.
    func shoot(_ name: String) throws {
        try resize(width: 390, height: 844)
        try screenshot(to: Self.screenshots.appending(path: "\(name)-phone.png"))
        try resize(width: 1280, height: 900)
        try screenshot(to: Self.screenshots.appending(path: "\(name)-desktop.png"))
    }
}
