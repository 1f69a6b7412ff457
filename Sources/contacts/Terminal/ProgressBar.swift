import Glibc

/// A one-line progress bar on standard error, redrawn in place, for long operations on a
/// terminal: `reading cards [########------------]  4500/10000`. It draws nothing when
/// standard error is not a terminal, and only once an operation has more than
/// ``minimumTotal`` steps, so that short runs and scripts see no control characters.
final class ProgressBar {
    /// Operations of fewer steps finish too soon to need a bar.
    static let minimumTotal = 200
    /// The bar's width in characters.
    private static let width = 30

    private let enabled: Bool
    private var drawn = false
    private var lastFilled = -1
    private var lastLabel = ""

    init() {
        enabled = isatty(STDERR_FILENO) == 1
    }

    /// Shows `done` of `total` steps of `label`.
    func show(_ label: String, done: Int, total: Int) {
        guard enabled, total >= Self.minimumTotal else { return }
        let filled = total == 0 ? Self.width : min(Self.width, done * Self.width / total)
        guard filled != lastFilled || label != lastLabel || done == total else { return }
        lastFilled = filled
        lastLabel = label
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled)
        let text = "\r\(label) [\(bar)] \(done)/\(total)\u{1B}[K"
        FileDescriptorWriter.writeAll(Array(text.utf8), to: STDERR_FILENO)
        drawn = true
    }

    /// Clears the bar's line, if one was drawn.
    func finish() {
        guard drawn else { return }
        FileDescriptorWriter.writeAll(Array("\r\u{1B}[K".utf8), to: STDERR_FILENO)
        drawn = false
    }
}
