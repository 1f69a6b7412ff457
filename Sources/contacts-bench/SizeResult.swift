/// Everything measured on one store.
struct SizeResult: Encodable {
    /// People in the store.
    var people: Int
    /// Files in `people/` that the floor read, and their total size.
    var recordFiles: Int
    var recordBytes: Int
    /// `generated`, or `copy of DIR`.
    var origin: String
    /// The generator of the cards used for the import figure (and for the store when generated).
    var generator: CardSource.Used
    /// How cards were imported.
    var importer: String
    /// Runs per figure.
    var runs: Int
    var figures: [Figure]
    /// The benchmark process's own peak after the list figure; it includes everything done
    /// before (generation, import), so the child-process figures are the per-operation ones.
    var processMemoryAfterList: ProcessMemory?
    var notes: [String]
    /// A sum of what the operations returned; meaningless except that it keeps the work done.
    var checksum: Int

    /// The figure with an identifier, if measured.
    func figure(_ id: String) -> Figure? {
        figures.first { $0.id == id }
    }
}
