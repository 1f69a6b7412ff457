import FoundationEssentials
import Glibc
import PlainContacts

/// The `commit` and `hold` subcommands, which drive the writer below the address book.
enum TransactionModes {
    /// Commits the changes of ``writes(count:)`` and ``deletions(count:)`` in one transaction under the exclusive lock,
    /// printing "committing" before and "committed" after.
    static func commit(store: URL, count: Int) throws {
        try StoreTransaction.withExclusiveLock(onStoreAt: store, timeout: .seconds(30)) {
            emit("committing")
            try StoreTransaction.commit(writing: writes(count: count), deleting: deletions(count: count), storeRoot: store)
            emit("committed")
        }
    }

    /// Takes the exclusive lock, prints "locked", and keeps it until standard input ends.
    static func hold(store: URL) throws {
        try StoreTransaction.withExclusiveLock(onStoreAt: store, timeout: .seconds(30)) {
            emit("locked")
            waitForEndOfInput()
        }
    }

    /// The files the `commit` subcommand writes, with their new bytes.
    static func writes(count: Int) -> [(path: String, data: Data)] {
        (0..<count).map { index in ("people/p\(index).json", Data("new \(index)\n".utf8)) }
    }

    /// The files the `commit` subcommand removes, after its writes.
    static func deletions(count: Int) -> [String] {
        stride(from: 0, to: count, by: 3).map { index in "groups/g\(index).json" }
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
