import FoundationEssentials

/// The person's picture, kept as the original bytes in a sidecar file beside the record.
extension Person {
    /// Whether the person has an image (`ABPersonHasImageData`).
    public var hasImage: Bool {
        if case .none = state.image { return false }
        return true
    }

    /// The image's original bytes, or `nil` (`ABPersonCopyImageData`).
    ///
    /// - Throws: ``ContactsError/Code/io`` when the saved sidecar file cannot be read;
    ///   ``ContactsError/Code/malformedFile`` when it is a symbolic link, which the store never
    ///   follows.
    public func imageData() throws -> Data? {
        if case .pending(let data) = state.image { return data }
        guard let layout = book?.layout ?? storeLayout else { return nil }
        return try StoreReader(layout: layout).imageData(state.image)
    }

    /// Sets the image from its original bytes (`ABPersonSetImageData`); the next save writes them
    /// beside the record with an extension that matches their format. Empty data removes it.
    public func setImageData(_ data: Data) {
        if data.isEmpty {
            removeImage()
        } else {
            state.image = .pending(data)
        }
    }

    /// Removes the image (`ABPersonRemoveImageData`).
    public func removeImage() {
        if case .none = state.image { return }
        state.image = .none
    }
}
