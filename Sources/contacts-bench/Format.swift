import Foundation

/// How figures are written in the tables.
enum Format {
    /// `10,000`.
    static func count(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    /// `812 µs`, `41.2 ms`, `3.07 s`: three significant digits.
    static func seconds(_ value: Double) -> String {
        if value < 1e-3 { return significant(value * 1e6) + " µs" }
        if value < 1 { return significant(value * 1e3) + " ms" }
        return significant(value) + " s"
    }

    /// `45.2 MB` from kilobytes (1 MB = 1024 kB, as `ru_maxrss` counts).
    static func kilobytes(_ value: Double) -> String {
        significant(value / 1024) + " MB"
    }

    /// `104 B`, `36.7 KB`, `1.71 MB` (1 KB = 1024 bytes).
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return significant(Double(count) / 1024) + " KB" }
        return significant(Double(count) / (1024 * 1024)) + " MB"
    }

    /// `1,234 cards/s`.
    static func rate(_ value: Double) -> String {
        count(Int(value.rounded())) + " cards/s"
    }

    /// `120×`, `4.3×`, `0.13×`, `0.0021×`.
    static func ratio(_ value: Double) -> String {
        if value >= 100 { return count(Int(value.rounded())) + "×" }
        if value >= 10 { return String(format: "%.0f", value) + "×" }
        if value >= 1 { return String(format: "%.1f", value) + "×" }
        if value < 0.0001 { return "<0.0001×" }
        return String(format: "%.2g", value) + "×"
    }

    /// A figure in its unit.
    static func value(_ value: Double, _ unit: Figure.Unit) -> String {
        switch unit {
        case .seconds: seconds(value)
        case .kilobytes: kilobytes(value)
        case .cardsPerSecond: rate(value)
        }
    }

    /// Three significant digits, without exponent.
    private static func significant(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        if value == 0 { return "0" }
        let decimals = min(8, 2 - Int(log10(value).rounded(.down)))
        return String(format: "%.\(decimals)f", value)
    }
}
