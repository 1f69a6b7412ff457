extension SortKey {
    /// A sort key read back from the index.
    init(storedHasName hasName: Bool, primary: String, secondary: String) {
        self.hasName = hasName
        self.primary = primary
        self.secondary = secondary
    }
}
