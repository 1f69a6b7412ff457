import Foundation

/// Progress lines on standard error, so that standard output holds only the results.
enum Progress {
    /// Prints `contacts-bench: text` on standard error.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data("contacts-bench: \(text)\n".utf8))
    }
}
