// A test-only program that drives the PlainContacts writer in a separate process, so that the
// test suite can kill it with SIGKILL in the middle of a commit or while it holds the lock.
//
//     plaincontacts-crash-helper commit <store> <count>
//         Takes the store's exclusive lock and commits, in one transaction, the bytes
//         "new <i>\n" to people/p<i>.json for every i in 0..<count and the removal of
//         groups/g<i>.json for every i in 0..<count divisible by 3. Prints "committing" just
//         before the commit and "committed" after it. Honours PLAINCONTACTS_FAULT_POINT.
//
//     plaincontacts-crash-helper hold <store>
//         Takes the store's exclusive lock, prints "locked", and keeps the lock until its
//         standard input reaches end of file.
//
// Exit status: 0 on success, 64 for a usage error, 1 for any other error (described on
// standard error).

import FoundationEssentials
import Glibc
import PlainContacts

/// Writes `text` and a newline to a file descriptor at once, so that a reader sees whole lines.
func emit(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    var bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { buffer in
            write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        }
        if written > 0 {
            offset += written
        } else if written < 0 && errno != EINTR {
            return
        }
    }
}

/// The changes of the `commit` subcommand.
func helperChanges(count: Int) -> [FileChange] {
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
func waitForEndOfInput() {
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count == 0 || (count < 0 && errno != EINTR) { return }
    }
}

func run(_ arguments: [String]) throws -> Int32 {
    switch arguments.count >= 2 ? arguments[1] : "" {
    case "commit":
        guard arguments.count == 4, let count = Int(arguments[3]), count >= 0 else { return 64 }
        let root = URL(fileURLWithPath: arguments[2])
        let lock = StoreLock(storeRoot: root)
        try lock.withExclusive(timeout: .seconds(30)) {
            emit("committing")
            try StoreTransaction.commit(helperChanges(count: count), storeRoot: root)
            emit("committed")
        }
        return 0
    case "hold":
        guard arguments.count == 3 else { return 64 }
        let lock = StoreLock(storeRoot: URL(fileURLWithPath: arguments[2]))
        try lock.withExclusive(timeout: .seconds(30)) {
            emit("locked")
            waitForEndOfInput()
        }
        return 0
    default:
        return 64
    }
}

do {
    let status = try run(CommandLine.arguments)
    if status == 64 {
        emit("usage: plaincontacts-crash-helper commit <store> <count> | hold <store>", to: STDERR_FILENO)
    }
    exit(status)
} catch {
    emit("plaincontacts-crash-helper: \(error)", to: STDERR_FILENO)
    exit(1)
}
