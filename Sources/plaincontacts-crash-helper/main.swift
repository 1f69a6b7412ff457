// A test-only program that drives PlainContacts in a separate process, so that the test suite
// can kill it with SIGKILL in the middle of a commit or a save, hold the store's lock, or run
// many writers at once.
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
//     plaincontacts-crash-helper book-save <store> <count>
//         Opens the store as an address book, adds <count> people named "Crash" "Person <n>"
//         (n in 1...count) with the note "new", and saves once. See BookModes.swift.
//
//     plaincontacts-crash-helper book-edit <store> <note>
//         Opens the store, sets every person's note to <note>, and saves once.
//
//     plaincontacts-crash-helper add <store> <first> <last>
//         Opens the store, adds one person, saves, and prints the new record ID.
//
//     plaincontacts-crash-helper contend <store> <worker> <iterations> <seed>
//         One of several concurrent writers; see ContentionWorker.swift.
//
//     plaincontacts-crash-helper serve <store>
//         Makes the server of `contacts serve` for the store (taking its one-server lock)
//         without listening, prints "serving", and keeps it until standard input reaches end
//         of file.
//
//     plaincontacts-crash-helper measure <report> <program> [<argument>…]
//         Runs <program> (a path) with the helper's standard streams and environment, writes
//         its peak resident memory in kilobytes to <report>, and exits with its status. See
//         MeasureMode.swift.
//
// The book modes print "saving" just before the save and "saved" after it, and honour
// PLAINCONTACTS_FAULT_POINT. Exit status: 0 on success, 64 for a usage error, 1 for any other
// error (described on standard error).

import FoundationEssentials
import Glibc

func run(_ arguments: [String]) throws -> Int32 {
    let mode = arguments.count >= 2 ? arguments[1] : ""
    let operands = Array(arguments.dropFirst(2))
    switch mode {
    case "commit":
        guard operands.count == 2, let count = Int(operands[1]), count >= 0 else { return 64 }
        try TransactionModes.commit(store: URL(fileURLWithPath: operands[0]), count: count)
    case "hold":
        guard operands.count == 1 else { return 64 }
        try TransactionModes.hold(store: URL(fileURLWithPath: operands[0]))
    case "book-save":
        guard operands.count == 2, let count = Int(operands[1]), count >= 0 else { return 64 }
        try BookModes.addPeople(store: URL(fileURLWithPath: operands[0]), count: count)
    case "book-edit":
        guard operands.count == 2 else { return 64 }
        try BookModes.editNotes(store: URL(fileURLWithPath: operands[0]), note: operands[1])
    case "add":
        guard operands.count == 3 else { return 64 }
        try BookModes.addPerson(store: URL(fileURLWithPath: operands[0]), firstName: operands[1], lastName: operands[2])
    case "contend":
        guard operands.count == 4, let worker = Int(operands[1]), let iterations = Int(operands[2]),
            let seed = UInt64(operands[3]), worker >= 0, iterations >= 0
        else { return 64 }
        var contender = ContentionWorker(
            store: URL(fileURLWithPath: operands[0]), worker: worker, iterations: iterations, seed: seed)
        try contender.run()
    case "serve":
        guard operands.count == 1 else { return 64 }
        try ServeModes.hold(store: URL(fileURLWithPath: operands[0]))
    case "measure":
        guard operands.count >= 2 else { return 64 }
        // The program's own status, whatever it is (64 included), is the helper's.
        exit(MeasureMode.run(report: operands[0], command: Array(operands.dropFirst())))
    default:
        return 64
    }
    return 0
}

do {
    let status = try run(CommandLine.arguments)
    if status == 64 {
        emit(
            "usage: plaincontacts-crash-helper commit <store> <count> | hold <store> | book-save <store> <count>"
                + " | book-edit <store> <note> | add <store> <first> <last>"
                + " | contend <store> <worker> <iterations> <seed> | serve <store> | measure <report> <program> [<argument>…]",
            to: STDERR_FILENO)
    }
    exit(status)
} catch {
    emit("plaincontacts-crash-helper: \(error)", to: STDERR_FILENO)
    exit(1)
}
