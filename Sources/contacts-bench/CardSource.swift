import Foundation
import PlainContacts

/// Where the benchmark's vCards come from: `gen_contacts.py` beside the package when it exists
/// and Python runs, else ``ContactGenerator``, which writes the same cards.
struct CardSource {
    /// Which generator to use.
    enum Choice: String {
        case automatic = "auto"
        case python
        case swift
    }

    /// The generator that wrote a file.
    enum Used: String, Encodable {
        case python = "gen_contacts.py"
        case swift = "swift"
    }

    var choice: Choice
    var seed: UInt64

    /// `<package root>/../shared/gen_contacts.py`, the package root found from this file's path.
    static var scriptURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // contacts-bench
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // package root
            .deletingLastPathComponent()
            .appending(path: "shared/gen_contacts.py")
    }

    /// Writes `count` cards into one `.vcf` file.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the file cannot be written or the script fails.
    func writeSingleFile(count: Int, to file: URL) throws -> Used {
        if let python = try pythonToUse() {
            try runScript(python, ["--count", String(count), "--single", file.path, "--seed", String(seed)])
            return .python
        }
        let writer = try ChunkedFileWriter(url: file)
        defer { writer.close() }
        var generator = ContactGenerator(seed: seed)
        for index in 0..<count {
            try writer.write(generator.card(index).text)
        }
        try writer.flush()
        return .swift
    }

    /// Writes `count` cards as one `<uid>.vcf` file each into a folder (a vdir).
    ///
    /// - Throws: ``ContactsError/Code/io`` when a file cannot be written or the script fails.
    func writeDirectory(count: Int, to folder: URL) throws -> Used {
        if let python = try pythonToUse() {
            try runScript(python, ["--count", String(count), "--vdir", folder.path, "--seed", String(seed)])
            return .python
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var generator = ContactGenerator(seed: seed)
            for index in 0..<count {
                let card = generator.card(index)
                try Data(card.text.utf8).write(to: folder.appending(path: card.uid + ".vcf"))
            }
        } catch let error as ContactsError {
            throw error
        } catch {
            throw ContactsError(.io, "cannot write the generated cards", path: folder.path, underlying: error)
        }
        return .swift
    }

    /// The Python interpreter to run the script with, or `nil` to generate in Swift.
    ///
    /// - Throws: ``ContactsError/Code/io`` when Python was asked for and the script or
    ///   `python3` is missing.
    private func pythonToUse() throws -> String? {
        if choice == .swift { return nil }
        let scriptExists = FileManager.default.fileExists(atPath: Self.scriptURL.path)
        let python = ChildProcess.findExecutable("python3")
        if let python, scriptExists { return python }
        if choice == .python {
            throw ContactsError(.io, "--generator python needs python3 and the script", path: Self.scriptURL.path)
        }
        return nil
    }

    private func runScript(_ python: String, _ arguments: [String]) throws {
        let result = try ChildProcess.run(python, [Self.scriptURL.path] + arguments, output: .inherit)
        guard result.status == 0 else {
            throw ContactsError(.io, "gen_contacts.py failed with status \(result.status)", path: Self.scriptURL.path)
        }
    }
}
