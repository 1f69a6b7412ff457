extension String {
    /// The text without white space at both ends.
    var trimmingWhitespace: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// The text padded with spaces, or cut, to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }

    /// The text with every occurrence of `target` replaced.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    /// A folder path as people write it: without a trailing slash.
    var withoutTrailingSlash: String {
        count > 1 && hasSuffix("/") ? String(dropLast()) : self
    }
}
