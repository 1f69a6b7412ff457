import FoundationEssentials

/// Reads the bytes of a saved image: the store a person came from, given to the person by its
/// book, so that the model needs no knowledge of files.
protocol PersonImageSource: Sendable {
    /// The bytes of the image saved under `fileName`.
    func imageData(fileName: String) throws -> Data
}

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
        switch state.image {
        case .none: nil
        case .pending(let data): data
        case .stored(let fileName): try imageSource?.imageData(fileName: fileName)
        }
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
