import FoundationEssentials

/// A prompt that gives the same answer every time without asking anyone.
///
/// ```swift
/// // A setup script that grants access on the user's behalf:
/// let granted = await AccessRequest.requestAccess(
///     client: "com.example.backup", store: storeURL, prompt: FixedAccessPrompt(answer: true))
/// ```
public struct FixedAccessPrompt: AccessPrompt {
    /// The answer given to every question: `true` allows, `false` refuses, `nil` means the
    /// user could not be asked.
    public var answer: Bool?

    /// Creates a prompt that always answers `answer`.
    public init(answer: Bool?) {
        self.answer = answer
    }

    /// Returns ``answer``.
    public func askForAccess(client: String, store: URL) async -> Bool? {
        answer
    }
}
