import Foundation

/// The keyboard alone, for the tests that use the web pages as someone without a pointer does:
/// key presses sent to whatever has the focus, through WebDriver's actions, and the element
/// that has the focus.
///
/// ```swift
/// try browser.press(WebDriverBrowser.Key.tab)
/// #expect(try browser.hasFocus("a.skip"))
/// ```
extension WebDriverBrowser {
    /// The WebDriver codes of the keys the tests press.
    enum Key {
        static let tab = "\u{E004}"
        static let enter = "\u{E007}"
        static let shift = "\u{E008}"
        static let control = "\u{E009}"
    }

    /// Presses and releases each key of `keys` in turn, as typing them does: to the element
    /// that has the focus, or to the page.
    func press(_ keys: String) throws {
        var actions: [[String: Any]] = []
        for key in keys.unicodeScalars.map(String.init) {
            actions.append(["type": "keyDown", "value": key])
            actions.append(["type": "keyUp", "value": key])
        }
        try keyActions(actions)
    }

    /// Presses `key` while `modifier` is held (Shift+Tab, Control+A).
    func press(_ key: String, holding modifier: String) throws {
        try keyActions([
            ["type": "keyDown", "value": modifier], ["type": "keyDown", "value": key],
            ["type": "keyUp", "value": key], ["type": "keyUp", "value": modifier],
        ])
    }

    /// Presses Tab until the element matching `selector` has the focus, at most `limit` times;
    /// gives how many presses it took.
    ///
    /// - Throws: ``Failure`` when the focus never reached it.
    @discardableResult
    func tab(to selector: String, limit: Int = 40) throws -> Int {
        for presses in 1...limit {
            try press(Key.tab)
            if try hasFocus(selector) { return presses }
        }
        throw Failure(description: "\(limit) presses of Tab never reached \(selector); the focus is on \(try focusDescription())")
    }

    /// Whether the element that has the focus is the first one matching `selector`.
    func hasFocus(_ selector: String) throws -> Bool {
        try activeElement() == element(selector)
    }

    /// The element that has the focus, described for a failure: its tag, id and text.
    func focusDescription() throws -> String {
        let element = try activeElement()
        let tag = try command("GET", "element/\(element)/name") as? String ?? "?"
        let id = try command("GET", "element/\(element)/attribute/id") as? String ?? ""
        let text = try command("GET", "element/\(element)/text") as? String ?? ""
        return "<\(tag) id=\"\(id)\"> \(text.prefix(40))"
    }

    /// The id of the element that has the focus.
    private func activeElement() throws -> String {
        let found = try command("GET", "element/active")
        guard let element = (found as? [String: Any])?[Self.elementKey] as? String else {
            throw Failure(description: "nothing has the focus: \(String(describing: found))")
        }
        return element
    }

    /// Runs a sequence of key actions and releases every key after it.
    private func keyActions(_ actions: [[String: Any]]) throws {
        try command("POST", "actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
        try command("DELETE", "actions")
    }
}
