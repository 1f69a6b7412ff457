/// A point in a watcher's record of changes: the watcher instance that counted (a new one for
/// every start, and whenever it lost track) and the sequence number it had reached.
///
/// A client keeps the token of its last full look at the files and asks what changed since;
/// a token of another instance means the answer is unknown and every file must be looked at.
///
/// ```swift
/// let token = ChangeToken(text: "9f86d081884c7d65-12")   // instance 0x9f86d081884c7d65, sequence 12
/// ```
package struct ChangeToken: Hashable, Sendable {
    /// The watcher instance, random and never zero.
    package var instance: UInt64
    /// How many batches of changes that instance had recorded.
    package var sequence: UInt64

    package init(instance: UInt64, sequence: UInt64) {
        self.instance = instance
        self.sequence = sequence
    }

    /// Reads `instance-sequence` in hexadecimal and decimal; `nil` for anything else.
    package init?(text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let instance = UInt64(parts[0], radix: 16), instance != 0,
            let sequence = UInt64(parts[1])
        else { return nil }
        self.init(instance: instance, sequence: sequence)
    }

    /// `instance-sequence`, as ``init(text:)`` reads it.
    package var text: String { String(instance, radix: 16) + "-" + String(sequence) }
}
