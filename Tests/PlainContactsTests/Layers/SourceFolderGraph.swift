import Foundation

/// The folders of one library and which folders each one depends on, read from its Swift
/// sources.
///
/// A file's folder is the first folder of its path inside the library; a file directly in the
/// library's folder is in a folder named after the library. `.docc` catalogs are skipped. A
/// file in folder `A` depends on folder `B` when it names (outside comments and string
/// literals; see ``SwiftCode``) a type declared at the top level of a file in `B`; extending a
/// type names it. Uses inside a folder are not edges, and a name declared in more than one
/// folder counts for none (``namesDeclaredInSeveralFolders`` lists them).
///
/// A file also depends on `B` when it names, after a `.`, a member that `B` adds to a type of
/// another module (`extension String { var trimmed … }`), if no other folder declares that
/// name.
///
/// ```swift
/// let graph = try SourceFolderGraph(libraryFolder: sources.appending(path: "PlainContacts"))
/// graph.uses[SourceFolderGraph.Edge(from: "Model", to: "Book")]?.first
/// // Model/Group.swift uses AddressBook
/// ```
struct SourceFolderGraph: Sendable {
    /// One folder depending on another.
    struct Edge: Hashable, Comparable, Sendable, CustomStringConvertible {
        var from: String
        var to: String

        static func < (left: Edge, right: Edge) -> Bool { (left.from, left.to) < (right.from, right.to) }

        var description: String { "\(from) → \(to)" }
    }

    /// A file naming a type of another folder: one reason for an edge.
    struct Use: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The file's path inside the library, such as `Model/Person.swift`.
        var file: String
        /// The type, or the extended type and member (`String.trimmed`), that the file names.
        var name: String

        static func < (left: Use, right: Use) -> Bool { (left.file, left.name) < (right.file, right.name) }

        var description: String { "\(file) uses \(name)" }
    }

    /// The library's folders, including those whose files declare or use nothing.
    let folders: Set<String>
    /// The folder of each type name declared in exactly one folder.
    let declaringFolder: [String: String]
    /// The type names declared in more than one folder, with those folders.
    let namesDeclaredInSeveralFolders: [String: Set<String>]
    /// Every edge, with every use behind it, sorted.
    let uses: [Edge: [Use]]

    /// Reads the `.swift` files under `libraryFolder`.
    ///
    /// - Throws: what listing the folder or reading a file as UTF-8 throws.
    init(libraryFolder: URL) throws {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: libraryFolder.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        let files = try paths.map { path in
            (path: path, text: try String(contentsOf: libraryFolder.appending(path: path), encoding: .utf8))
        }
        self.init(library: libraryFolder.lastPathComponent, files: files)
    }

    /// Builds the graph of sources given as paths inside the library, named `library`, and
    /// their text; files in a `.docc` catalog are left out.
    init(library: String, files: [(path: String, text: String)]) {
        let files = files.filter { file in !file.path.split(separator: "/").contains { $0.hasSuffix(".docc") } }
        let folderOfFile = Dictionary(
            files.map { file in
                let components = file.path.split(separator: "/")
                return (file.path, components.count > 1 ? String(components[0]) : library)
            },
            uniquingKeysWith: { first, _ in first })
        let code = files.map { (path: $0.path, code: SwiftCode($0.text)) }

        var declaring: [String: Set<String>] = [:]
        for file in code {
            for name in file.code.topLevelTypeNames { declaring[name, default: []].insert(folderOfFile[file.path, default: library]) }
        }
        let declaringFolder = declaring.compactMapValues { $0.count == 1 ? $0.first : nil }

        let foreignMembers = Self.membersOfForeignTypes(in: code, folderOfFile: folderOfFile, declaredTypes: declaring)

        var uses: [Edge: [Use]] = [:]
        for file in code {
            let folder = folderOfFile[file.path, default: library]
            for name in file.code.capitalizedNames {
                guard let other = declaringFolder[name], other != folder else { continue }
                uses[Edge(from: folder, to: other), default: []].append(Use(file: file.path, name: name))
            }
            for member in file.code.memberNames {
                guard let (other, type) = foreignMembers[member], other != folder else { continue }
                uses[Edge(from: folder, to: other), default: []].append(Use(file: file.path, name: "\(type).\(member)"))
            }
        }

        self.folders = Set(folderOfFile.values)
        self.declaringFolder = declaringFolder
        self.namesDeclaredInSeveralFolders = declaring.filter { $0.value.count > 1 }
        self.uses = uses.mapValues { $0.sorted() }
    }

    /// The members that one folder adds to types declared outside the library, by name, with
    /// that folder and the type; a name that another folder declares too is left out.
    private static func membersOfForeignTypes(
        in code: [(path: String, code: SwiftCode)], folderOfFile: [String: String], declaredTypes: [String: Set<String>]
    ) -> [String: (folder: String, type: String)] {
        var foldersDeclaring: [String: Set<String>] = [:]
        var members: [String: (folder: String, type: String)] = [:]
        for file in code {
            let folder = folderOfFile[file.path, default: ""]
            for name in file.code.declaredNames { foldersDeclaring[name, default: []].insert(folder) }
            for member in file.code.extensionMembers where declaredTypes[member.type] == nil {
                members[member.member] = (folder, member.type)
            }
        }
        return members.filter { foldersDeclaring[$0.key]?.count == 1 }
    }

    /// The uses behind `edge`, one line per file: `Model/Person.swift: AddressBook, RecordKey`.
    func usesByFile(_ edge: Edge) -> [String] {
        let byFile = Dictionary(grouping: uses[edge, default: []], by: \.file)
        return byFile.keys.sorted().map { file in
            "\(file): \(byFile[file, default: []].map(\.name).sorted().joined(separator: ", "))"
        }
    }

    /// Every edge, sorted.
    var edges: [Edge] { uses.keys.sorted() }

    /// The folders `folder` depends on.
    func dependencies(of folder: String) -> Set<String> {
        Set(uses.keys.filter { $0.from == folder }.map(\.to))
    }

    /// The cycles: the strongly connected components of more than one folder, each sorted,
    /// largest first.
    var cycles: [[String]] {
        var search = ComponentSearch(graph: self)
        for folder in folders.sorted() where search.order[folder] == nil { search.visit(folder) }
        return search.components.filter { $0.count > 1 }.map { $0.sorted() }
            .sorted { left, right in
                left.count != right.count ? left.count > right.count : left.lexicographicallyPrecedes(right)
            }
    }
}

/// Tarjan's search for strongly connected components.
private struct ComponentSearch {
    let graph: SourceFolderGraph
    var order: [String: Int] = [:]
    var lowest: [String: Int] = [:]
    var stack: [String] = []
    var onStack: Set<String> = []
    var components: [[String]] = []

    init(graph: SourceFolderGraph) { self.graph = graph }

    mutating func visit(_ folder: String) {
        order[folder] = order.count
        lowest[folder] = order[folder]
        stack.append(folder)
        onStack.insert(folder)
        for next in graph.dependencies(of: folder).sorted() {
            if order[next] == nil {
                visit(next)
                lowest[folder] = min(lowest[folder, default: 0], lowest[next, default: 0])
            } else if onStack.contains(next) {
                lowest[folder] = min(lowest[folder, default: 0], order[next, default: 0])
            }
        }
        guard lowest[folder] == order[folder] else { return }
        var component: [String] = []
        while let top = stack.popLast() {
            onStack.remove(top)
            component.append(top)
            if top == folder { break }
        }
        components.append(component)
    }
}
