/// The match keys of people's cards (``CardMapping/matchKey(storedUID:key:)``) as the store's index
/// knows them, for a program that needs the UIDs of thousands of cards without reading their
/// files: the CardDAV server's first listing after an import or a `git pull`.
///
/// The index is only believed for a file that still has the signature it had when the index
/// read it, and that last changed well before (outside ``FileSignature/racyWindow``), as the
/// store's own catalog believes it; anything else answers `nil`, and the caller reads the file.
///
/// ```swift
/// let uids = IndexedCardUIDs(layout: layout)
/// if let signature = FileSignature.of(path), let uid = uids?.matchKey(of: key, signature: signature) { … }
/// ```
package struct IndexedCardUIDs: Sendable {
    private let index: StoreIndex
    private let summaries: [RecordKey: PersonSummary]

    /// The index of the store, with every summary; `nil` when there is none or it is damaged.
    package init?(layout: StoreLayout) {
        guard let index = StoreIndex.load(layout, including: .summaries), let summaries = index.allSummaries() else {
            return nil
        }
        self.index = index
        self.summaries = summaries
    }

    /// The match key of the card of the person with file key `key`, when the index read the
    /// file as it is now (its signature is `signature`); `nil` when the index cannot tell.
    package func matchKey(of key: RecordKey, signature: FileSignature) -> String? {
        guard let summary = summaries[key], summary.signature == signature,
            signature.latest < index.checkTime(of: key) - FileSignature.racyWindow
        else { return nil }
        return CardMapping.matchKey(storedUID: summary.uid, key: key)
    }
}
