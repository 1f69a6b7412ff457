import Glibc

/// The question a client asks a watcher over its ``LocalSocket``, and the answer, as lines of
/// text:
///
/// ```
/// → since 9f86d081884c7d65-12        (or: since none)
/// ← changed 9f86d081884c7d65-14
/// ← people/ann.json
/// ← people/bob.json
/// ```
///
/// or `unknown <token>` with no names. The watcher closes the connection after the answer.
package enum ChangeQuery {
    /// The longest answer a client takes (a watcher keeps at most
    /// ``ChangeJournal/defaultCapacity`` names, each at most a file name long).
    static let answerLimit = 64 << 20
    /// The longest question a watcher takes.
    package static let questionLimit = 256

    /// Asks the watcher at `socketPath` what changed since `token`; `nil` when no watcher of
    /// this user answers within `timeoutMilliseconds` (none running, one that died, a stuck
    /// one, a foreign socket), so that the caller looks at every file instead.
    package static func ask(_ socketPath: String, since token: ChangeToken?, timeoutMilliseconds: Int) -> ChangeJournal.Answer? {
        guard let socket = LocalSocket.connect(socketPath, timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        defer { close(socket) }
        guard LocalSocket.send(question(since: token), to: socket),
            let bytes = LocalSocket.receive(from: socket, limit: answerLimit)
        else { return nil }
        return answer(parsing: bytes)
    }

    /// The question's bytes.
    package static func question(since token: ChangeToken?) -> [UInt8] {
        Array("since \(token?.text ?? "none")\n".utf8)
    }

    /// The token a question asks about: `.some(nil)` for `since none`, `nil` for a question
    /// that is not one.
    package static func token(parsing question: [UInt8]) -> ChangeToken?? {
        let text = String(decoding: question, as: UTF8.self)
        guard text.hasPrefix("since "), text.hasSuffix("\n") else { return nil }
        let value = text.dropFirst(6).dropLast()
        if value == "none" { return .some(nil) }
        guard let token = ChangeToken(text: value) else { return nil }
        return .some(token)
    }

    /// The bytes of an answer.
    package static func bytes(of answer: ChangeJournal.Answer) -> [UInt8] {
        switch answer {
        case .unknown(let now):
            return Array("unknown \(now.text)\n".utf8)
        case .changed(let now, let names):
            var text = "changed \(now.text)\n"
            for name in names { text += name + "\n" }
            return Array(text.utf8)
        }
    }

    /// An answer read back; `nil` for bytes that are not one (a client then looks at every
    /// file).
    package static func answer(parsing bytes: [UInt8]) -> ChangeJournal.Answer? {
        guard bytes.last == 0x0A else { return nil }
        let lines = bytes.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard let first = lines.first else { return nil }
        let head = first.split(separator: " ")
        guard head.count == 2, let now = ChangeToken(text: head[1]) else { return nil }
        switch head[0] {
        case "unknown" where lines.count == 1: return .unknown(now)
        case "changed": return .changed(now, names: Array(lines.dropFirst()))
        default: return nil
        }
    }
}
