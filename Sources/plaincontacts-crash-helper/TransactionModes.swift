import FoundationEssentials
import Glibc
import PlainContacts

/// The `commit` and `hold` subcommands, which drive the writer below the address book.
enum TransactionModes {
    /// Commits the changes of ``changes(count:)`` in one transaction under the exclusive lock,
    /// printing "committing" before and "committed" after.
    static func commit(store: URL, count: Int) throws {
        let lock = StoreLock(storeRoot: store)
        try lock.withExclusive(timeout: .seconds(30)) {
            emit("committing")
            try StoreTransaction.commit(changes(count: count), storeRoot: store)
            emit("committed")
        }
    }

    /// Takes the exclusive lock, prints "locked", and keeps it until standard input ends.
    static func hold(store: URL) throws {
        let lock = StoreLock(storeRoot: store)
        try lock.withExclusive(timeout: .seconds(30)) {
            emit("locked")
            waitForEndOfInput()
        }
    }

    /// The changes of the `commit` subcommand.
    static func changes(count: Int) -> [FileChange] {
        var changes: [FileChange] = []
        for index in 0..<count {
            changes.append(.write(Data("new \(index)\n".utf8), to: "people/p\(index).json"))
        }
        for index in stride(from: 0, to: count, by: 3) {
            changes.append(.delete("groups/g\(index).json"))
        }
        return changes
    }

    /// Blocks until standard input reaches end of file.
    static func waitForEndOfInput() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count == 0 || (count < 0 && errno != EINTR) { return }
        }
    }
}
