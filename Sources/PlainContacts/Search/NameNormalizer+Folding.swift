import Foundation

// The three ways `normalize(_:)` computes the same result: ASCII text byte by byte, common
// scripts scalar by scalar through a table, anything else through Foundation.
extension NameNormalizer {
    /// Whether `scalar` has the Unicode property White_Space.
    ///
    /// The 25 scalars are listed rather than looked up, so that the set is the same on every
    /// machine (it has not changed since Unicode 6.3).
    static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
            0x3000:
            return true
        default:
            return false
        }
    }

    /// Steps 1–5 for text that is all ASCII, where steps 1, 2 and 4 change nothing.
    static func normalizeASCII(_ text: String) -> String {
        let utf8 = text.utf8
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            var count = 0
            var pendingSpace = false
            for byte in utf8 {
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    pendingSpace = count > 0
                    continue
                }
                if pendingSpace {
                    buffer[count] = 0x20
                    count += 1
                    pendingSpace = false
                }
                buffer[count] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                count += 1
            }
            return count
        }
    }

    /// Steps 1–5 computed scalar by scalar, or `nil` when `text` has a scalar that this way
    /// does not cover.
    ///
    /// A covered scalar folds the same way wherever it stands: it is ASCII, white space, in a
    /// ``FoldTable`` whose entry holds no mark and no Hangul jamo (so decomposition needs no
    /// reordering and composition has nothing to join), or passes through all five steps
    /// unchanged (Han ideographs, kana, Hangul syllables).
    static func normalizeWithFoldTable(_ text: String) -> String? {
        var folded = FoldedText(capacity: text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                folded.append(scalar)
            } else if let entry = FoldTable.latin.entry(for: value) ?? FoldTable.latinExtended.entry(for: value) {
                for folding in entry {
                    folded.append(folding)
                }
            } else if isWhiteSpace(scalar) || passesUnchanged(value) {
                folded.append(scalar)
            } else {
                return nil
            }
        }
        return folded.string
    }

    /// Steps 1–5 for any text, through Foundation.
    ///
    /// White space is collapsed while lowercasing, before composing: canonical composition
    /// neither creates, removes nor joins white space, so the result is the same as
    /// collapsing last.
    static func normalizeWithFoundation(_ text: String) -> String {
        var folded = FoldedText(capacity: text.utf8.count)
        var needsComposition = false
        for scalar in foldedScalars(text) {
            if !needsComposition, mayCompose(scalar) {
                needsComposition = true
            }
            folded.append(scalar)
        }
        let result = folded.string
        return needsComposition ? result.precomposedStringWithCanonicalMapping : result
    }

    /// Steps 1–3: the scalars of `text` decomposed, without the dropped marks, lowercased.
    static func foldedScalars(_ text: String) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars {
            if isDroppedMark(scalar) { continue }
            if scalar.value < 0x80 {
                let value = scalar.value
                scalars.append((0x41...0x5A).contains(value) ? Unicode.Scalar(UInt8(value | 0x20)) : scalar)
                continue
            }
            let properties = scalar.properties
            // For decomposed scalars, Changes_When_Lowercased means the mapping differs.
            if properties.changesWhenLowercased {
                scalars.append(contentsOf: properties.lowercaseMapping.unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        return scalars
    }

    /// Whether step 2 drops `scalar`.
    static func isDroppedMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F:
            return true
        default:
            return false
        }
    }

    /// Whether canonical composition could join `scalar` to the scalar before it.
    ///
    /// In decomposed text only marks and Hangul jamo can be joined; text without them is
    /// already composed.
    static func mayCompose(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x300 { return false }
        if (0x1100...0x11FF).contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Whether steps 1–5 leave `value` unchanged wherever it stands among covered scalars:
    /// the iteration marks 々 and 〇, Hiragana, Katakana, Han ideographs and Hangul syllables
    /// (decomposed in step 1 and composed again in step 4).
    private static func passesUnchanged(_ value: UInt32) -> Bool {
        switch value {
        case 0x3005, 0x3007, 0x3041...0x3096, 0x309D...0x309E, 0x30A0...0x30FE,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        default:
            return false
        }
    }
}

extension NameNormalizer {
    /// Normalized text under construction: lowercased scalars with white space trimmed and
    /// collapsed (step 5) as they are appended.
    struct FoldedText {
        private var bytes: [UInt8] = []
        private var pendingSpace = false

        init(capacity: Int) {
            bytes.reserveCapacity(capacity + 4)
        }

        /// Appends `scalar`; ASCII capitals are lowercased, other scalars must be folded already.
        mutating func append(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            if value < 0x80 {
                let byte = UInt8(value)
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    pendingSpace = !bytes.isEmpty
                    return
                }
                appendPendingSpace()
                bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
                return
            }
            if NameNormalizer.isWhiteSpace(scalar) {
                pendingSpace = !bytes.isEmpty
                return
            }
            appendPendingSpace()
            UTF8.encode(scalar) { bytes.append($0) }
        }

        var string: String {
            String(decoding: bytes, as: UTF8.self)
        }

        private mutating func appendPendingSpace() {
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
        }
    }

    /// Steps 1–3 of every scalar in a range, computed once with Foundation on first use.
    ///
    /// An entry is `nil` when the scalar's folding holds a mark or a Hangul jamo, which could
    /// interact with neighbouring scalars; text holding such a scalar takes the Foundation path.
    struct FoldTable: Sendable {
        /// Latin-1 Supplement, Latin Extended-A and -B, IPA, spacing modifiers, combining
        /// diacritical marks, Greek and basic Cyrillic: U+0080–045F.
        static let latin = FoldTable(0x80..<0x460)
        /// Latin Extended Additional (Vietnamese) and Greek Extended: U+1E00–1FFF.
        static let latinExtended = FoldTable(0x1E00..<0x2000)

        private let range: Range<UInt32>
        private let entries: [[Unicode.Scalar]?]

        private init(_ range: Range<UInt32>) {
            self.range = range
            self.entries = range.map { value in
                guard let scalar = Unicode.Scalar(value) else { return nil }
                let folded = NameNormalizer.foldedScalars(String(scalar))
                return folded.contains(where: NameNormalizer.mayCompose) ? nil : folded
            }
        }

        /// The folding of the scalar `value`, or `nil` when it is outside the table or has none.
        func entry(for value: UInt32) -> [Unicode.Scalar]? {
            guard range.contains(value) else { return nil }
            return entries[Int(value - range.lowerBound)]
        }
    }
}
