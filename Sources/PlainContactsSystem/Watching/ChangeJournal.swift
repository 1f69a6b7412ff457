/// A watcher's record of which names changed when: each batch of changes it reads gets the
/// next sequence number, and each name remembers the last batch it was in, so that the names
/// changed since any earlier token of the same instance can be told.
///
/// Anything that makes the record incomplete (the kernel's queue overflowed, a watched folder
/// was replaced, too many names to keep, a name the answer cannot carry) starts a new
/// instance: every token of the old one is then unknown, and its holders look at every file,
/// as Git's file system monitor does.
///
/// ```swift
/// var journal = ChangeJournal()
/// journal.record(["people/ann.json"])
/// journal.answer(since: token)   // .changed(now, ["people/ann.json"]) or .unknown(now)
/// ```
package struct ChangeJournal: Sendable {
    /// The answer to "what changed since this token".
    package enum Answer: Equatable, Sendable {
        /// The names changed since the token (sorted), and the token that stands for now.
        case changed(ChangeToken, names: [String])
        /// The token is not one this journal can answer for: every file must be looked at.
        case unknown(ChangeToken)
    }

    /// The most names kept before the record starts over (a long-running watcher of a busy
    /// store would otherwise grow without end; the cost is one full check per client).
    package static let defaultCapacity = 1 << 16

    /// The token that stands for now.
    package private(set) var now: ChangeToken
    private var lastChanged: [String: UInt64] = [:]
    private let capacity: Int

    package init(capacity: Int = ChangeJournal.defaultCapacity) {
        self.capacity = capacity
        now = ChangeToken(instance: ChangeJournal.newInstance(), sequence: 0)
    }

    /// Records one batch of changed names (paths relative to the watched root). A name with a
    /// line break, which an answer could not carry, starts over instead.
    package mutating func record(_ names: some Collection<String>) {
        guard !names.isEmpty else { return }
        now.sequence += 1
        for name in names {
            guard !name.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
                startOver()
                return
            }
            lastChanged[name] = now.sequence
        }
        if lastChanged.count > capacity { startOver() }
    }

    /// Forgets everything and starts a new instance: every earlier token becomes unknown.
    package mutating func startOver() {
        lastChanged = [:]
        now = ChangeToken(instance: ChangeJournal.newInstance(), sequence: 0)
    }

    /// What changed since `token`; unknown for a token of another instance, none, or one
    /// from this instance's future.
    package func answer(since token: ChangeToken?) -> Answer {
        guard let token, token.instance == now.instance, token.sequence <= now.sequence else { return .unknown(now) }
        guard token.sequence < now.sequence else { return .changed(now, names: []) }
        return .changed(now, names: lastChanged.compactMap { $0.value > token.sequence ? $0.key : nil }.sorted())
    }

    private static func newInstance() -> UInt64 {
        UInt64.random(in: 1...UInt64.max)
    }
}
