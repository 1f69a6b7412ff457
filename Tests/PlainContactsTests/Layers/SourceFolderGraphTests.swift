import Testing

extension SourceLayersTests {
    /// The graph of folders that the layering tests check.
    @Suite struct SourceFolderGraphTests {
        @Test func theGraphJoinsUsesToTheFolderThatDeclares() throws {
            let graph = SourceFolderGraph(
                library: "Store",
                files: [
                    (path: "Model/Person.swift", text: "struct Person { var book: Book? }"),
                    (path: "Model/Label.swift", text: "struct Label { let person: Person }"),
                    (path: "Book/Book.swift", text: "final class Book { var people: [Person] }"),
                    (path: "Book/Person+Sort.swift", text: "extension Person {}  // uses Label"),
                    (path: "Root.swift", text: "enum Root { static let label: Label? = nil }"),
                    (path: "Docs.docc/Snippet.swift", text: "struct Person {}"),
                    (path: "VCard/Twice.swift", text: "struct Twice {}"),
                    (path: "Search/Twice.swift", text: "struct Twice {}"),
                ])
            #expect(graph.folders == ["Model", "Book", "Store", "VCard", "Search"])
            #expect(graph.edges.map(\.description) == ["Book → Model", "Model → Book", "Store → Model"])
            let uses = try #require(graph.uses[SourceFolderGraph.Edge(from: "Book", to: "Model")])
            #expect(uses.map(\.description) == ["Book/Book.swift uses Person", "Book/Person+Sort.swift uses Person"])
            #expect(graph.usesByFile(SourceFolderGraph.Edge(from: "Store", to: "Model")) == ["Root.swift: Label"])
            #expect(graph.namesDeclaredInSeveralFolders["Twice"] == ["VCard", "Search"])
            #expect(graph.cycles == [["Book", "Model"]])
        }

        @Test func membersAddedToAnotherModulesTypeAreUses() {
            let files = [
                (path: "HTTP/String+Trim.swift", text: "extension String { var trimmed: String { self } }"),
                (path: "Sync/Sync.swift", text: "struct Sync { let token = \" a \".trimmed }"),
            ]
            let graph = SourceFolderGraph(library: "Store", files: files)
            #expect(graph.uses.values.joined().map(\.description) == ["Sync/Sync.swift uses String.trimmed"])

            // A name another folder declares too, or a member of the library's own type, is no use.
            let unclear = SourceFolderGraph(
                library: "Store",
                files: files + [
                    (path: "Serve/Serve.swift", text: "struct Serve { let trimmed = 1 }"),
                    (path: "Cards/Person.swift", text: "struct Person {}\nextension Person { var merged: Int { 1 } }"),
                    (path: "Views/View.swift", text: "struct View { let a = 1.merged }"),
                ])
            #expect(unclear.edges.isEmpty)
        }
    }
}
