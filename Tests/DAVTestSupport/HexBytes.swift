/// Decodes hexadecimal digits, as RFC test vectors print them (spaces and line breaks
/// allowed), into bytes.
///
/// ```swift
/// bytes(hex: "0b0b 0b")  // [11, 11, 11]
/// ```
public func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.filter(\.isHexDigit))
    return stride(from: 0, to: digits.count - 1, by: 2).map { index in
        UInt8(String(digits[index...index + 1]), radix: 16) ?? 0
    }
}
