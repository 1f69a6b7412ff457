import PlainContactsSystem

/// A short, stable fingerprint of a person's first and last name.
///
/// A name hash is 16 lowercase hexadecimal digits: the first 8 bytes of the SHA-256 digest of
///
///     utf8(normalize(firstName ?? "") + "\u{1F}" + normalize(lastName ?? ""))
///
/// where `normalize` is version 1 of ``NameNormalizer/normalize(_:)`` and U+001F is the
/// UNIT SEPARATOR. Case, diacritics, full-width forms and spacing do not change the hash, so
/// it identifies a person across edits that only change how the name is typed. It encodes as
/// a bare JSON string, such as `"618fd5820d400360"`.
///
/// ```swift
/// let hash = NameHash("618fd5820d400360")
/// hash?.rawValue  // "618fd5820d400360"
/// ```
///
/// The value is fixed for every machine and every version of the library. These vectors are
/// part of the test suite and were checked against an independent implementation:
///
/// | First name | Last name | Name hash |
/// |---|---|---|
/// | `"Katie"` | `"Bell"` | `618fd5820d400360` |
/// | `"KATIE"` | `"bell"` | `618fd5820d400360` |
/// | `"Ｋａｔｉｅ"` (full-width) | `"Bell"` | `618fd5820d400360` |
/// | `"Zoë"` | `"Ødegaard"` | `72205f7039f56725` |
/// | `"太郎"` | `"山田"` | `6b1016ac29cfabde` |
/// | `"ｶﾀｶﾅ"` (half-width) | `"テスト"` | `a36c91ac7540e7f0` |
/// | `nil` | `nil` | `ffe679bb831c95b6` |
/// | `"Иван"` | `"Иванов"` | `5711eb5db56b58b0` |
/// | `"Chloé"` | `"  Dubois  "` | `a7af3538e2b633d3` |
/// | `"ΟΔΥΣΣΕΑΣ"` | `"Straße"` | `ac70b4b65f12dfcd` |
/// | `"İlker"` | `"Ñúñez"` | `57ac2b238415dec3` |
/// | `"성광"` | `"송"` | `ca063e9eaf079dcd` |
/// | `"Katie"` | `nil` | `99792cc1bc965bb5` |
public struct NameHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 16 lowercase hexadecimal digits of the hash.
    public var rawValue: String { digits }

    private let digits: String

    /// Creates a name hash from its 16 lowercase hexadecimal digits, or returns `nil` when
    /// `string` is anything else (upper case, other length, other characters).
    ///
    /// ```swift
    /// NameHash("618fd5820d400360")  // a name hash
    /// NameHash("618FD5820D400360")  // nil
    /// ```
    public init?(_ string: String) {
        guard Self.isValid(string) else { return nil }
        self.digits = string
    }

    /// Creates a name hash from its 16 lowercase hexadecimal digits, read as a bare string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not 16 lowercase
    ///   hexadecimal digits; store readers report this as ``ContactsError/Code/malformedFile``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard Self.isValid(string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A name hash must be 16 lowercase hexadecimal digits.")
        }
        self.digits = string
    }

    /// Writes the name hash as a bare string of 16 lowercase hexadecimal digits.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The 16 lowercase hexadecimal digits.
    public var description: String { rawValue }

    /// Returns the name hash of a first and last name; a missing part counts as empty.
    ///
    /// ```swift
    /// NameHash.of(firstName: "Katie", lastName: "Bell").rawValue  // "618fd5820d400360"
    /// ```
    static func of(firstName: String?, lastName: String?) -> NameHash {
        let text =
            NameNormalizer.normalize(firstName ?? "") + "\u{1F}" + NameNormalizer.normalize(lastName ?? "")
        let digest = SHA256.hash(text.utf8)
        return NameHash(uncheckedRawValue: SHA256.hexString(digest.prefix(Self.byteCount)))
    }

    /// The number of digest bytes kept.
    private static let byteCount = 8

    private init(uncheckedRawValue: String) {
        self.digits = uncheckedRawValue
    }

    private static func isValid(_ string: String) -> Bool {
        let utf8 = string.utf8
        return utf8.count == byteCount * 2
            && utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
