import Foundation

exit(ContactsTool.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
