import Foundation
import Testing

/// The folders of a library, layer by layer from the bottom up: a folder may use the folders of
/// the layers below its own, never one of its own layer or above, so no cycle can form.
///
/// The tables of both libraries are in `SourceLayersTests.swift`.
///
/// ```swift
/// let violations = LibraryLayers.dav.violations(in: try LibraryLayers.dav.graph())
/// ```
struct LibraryLayers: Sendable, CustomTestStringConvertible {
    /// A use of a folder of the same layer or above that the sources still make.
    struct KnownViolation: Sendable, CustomStringConvertible {
        var from: String
        var to: String
        /// One file and type that make it, for the reader of the table.
        var example: String

        init(_ from: String, _ to: String, example: String) {
            self.from = from
            self.to = to
            self.example = example
        }

        var edge: SourceFolderGraph.Edge { SourceFolderGraph.Edge(from: from, to: to) }
        var description: String { "\(edge) (\(example))" }
    }

    /// The library's folder under `Sources`.
    var library: String
    /// The layers from the bottom up, each a list of folders none of which uses another.
    var layers: [[String]]
    /// The violations of ``layers`` the sources make today.
    var knownViolations: [KnownViolation] = []

    var testDescription: String { library }

    /// The layer of `folder`, counted from 0 at the bottom, or `nil` when the table lacks it.
    func layer(of folder: String) -> Int? { layers.firstIndex { $0.contains(folder) } }

    /// The edges of `graph` from a folder to one of its own layer or above.
    func violations(in graph: SourceFolderGraph) -> [SourceFolderGraph.Edge] {
        graph.edges.filter { edge in
            guard let from = layer(of: edge.from), let to = layer(of: edge.to) else { return false }
            return to >= from
        }
    }

    /// This library's graph, read once for all the tests.
    ///
    /// - Throws: what reading the sources threw.
    func graph() throws -> SourceFolderGraph {
        guard let graph = Self.graphs[library] else { return try Self.readGraph(of: library) }
        return try graph.get()
    }

    private static let graphs = Dictionary(
        uniqueKeysWithValues: all.map { table in (table.library, Result { try readGraph(of: table.library) }) })

    /// Reads the sources of `library`, found from this file's place in the package.
    private static func readGraph(of library: String) throws -> SourceFolderGraph {
        let package = URL(filePath: #filePath).deletingLastPathComponent()  // Layers
            .deletingLastPathComponent()  // PlainContactsTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        return try SourceFolderGraph(libraryFolder: package.appending(path: "Sources").appending(path: library))
    }
}
