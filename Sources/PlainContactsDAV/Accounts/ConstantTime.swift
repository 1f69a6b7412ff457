/// Comparisons whose duration does not depend on where two secrets differ, so that an attacker
/// timing the replies cannot find a correct value byte by byte.
///
/// ```swift
/// ConstantTime.equals(presentedTag, storedTag)
/// ```
enum ConstantTime {
    /// Returns whether `lhs` and `rhs` hold the same bytes, looking at every byte of the longer
    /// one whatever the contents; the time depends only on the two lengths, which are public
    /// (digests and derived keys have fixed lengths).
    ///
    /// ```swift
    /// ConstantTime.equals([1, 2, 3], [1, 2, 3])  // true
    /// ConstantTime.equals([1, 2, 3], [1, 2])     // false, after looking at all three bytes
    /// ```
    @inline(never)
    static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        // Accumulate every difference with OR and decide once at the end: no early return.
        var difference: UInt8 = lhs.count == rhs.count ? 0 : 1
        let count = max(lhs.count, rhs.count)
        for index in 0..<count {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}
