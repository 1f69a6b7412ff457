import Foundation

/// The export files under `Tests/PlainContactsTests/Fixtures/exports`, found from this source
/// file's path (see `SOURCES.md` there).
enum ExportFixtures {
    /// The `Fixtures/exports` folder.
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Interchange
        .deletingLastPathComponent()  // PlainContactsTests
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("exports")

    /// The bytes of a fixture, by its path under the folder.
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(path))
    }

    /// The CSV fixtures, as paths under the folder.
    static var csvFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("csv").path)) ?? []
        return names.filter { $0.hasSuffix(".csv") || $0.hasSuffix(".tsv") }.sorted().map { "csv/\($0)" }
    }
}
