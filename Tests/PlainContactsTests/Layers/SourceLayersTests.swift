import Testing

/// The folders of each library keep to its layers, read from the sources, so that no cycle
/// between folders can come back.
@Suite struct SourceLayersTests {}
