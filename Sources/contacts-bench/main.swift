import Foundation
import PlainContacts

// contacts-bench: measures PlainContacts on generated or existing stores. `--help` explains.
do {
    try BenchCommand.run(try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst())))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("contacts-bench: \(error.message)\n\n\(BenchOptions.usage)\n".utf8))
    exit(64)
} catch let error as ContactsError {
    FileHandle.standardError.write(Data("contacts-bench: \(error)\n".utf8))
    switch error.code {
    case .notAStore: exit(66)
    case .malformedFile, .conflictMarkers: exit(65)
    case .busy, .conflict: exit(75)
    case .operationNotPermittedByUser: exit(77)
    default: exit(1)
    }
} catch let error as InterchangeError {
    FileHandle.standardError.write(Data("contacts-bench: \(error)\n".utf8))
    exit(65)
} catch {
    FileHandle.standardError.write(Data("contacts-bench: \(error)\n".utf8))
    exit(1)
}
