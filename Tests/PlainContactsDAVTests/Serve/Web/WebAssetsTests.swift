import Foundation
import Testing
@testable import PlainContactsDAV

/// The style sheet's colours pass WCAG AA: every rule's text colour on its background (the
/// page's when the rule sets none) has a contrast ratio of at least 4.5:1, in the light and in
/// the dark scheme.
@Suite struct WebAssetsTests {
    /// The custom properties (`--fg: #1b1b1b`) of the first block after `marker`.
    private func colours(after marker: String, in css: String) throws -> [String: String] {
        let start = try #require(css.range(of: marker)).upperBound
        let block = css[start...].prefix { $0 != "}" }
        var colours: [String: String] = [:]
        for declaration in block.split(separator: ";") {
            let pair = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if pair.count == 2, pair[0].hasPrefix("--"), pair[1].hasPrefix("#") { colours[pair[0]] = pair[1] }
        }
        return colours
    }

    /// Each rule's text colour and background, as custom property names.
    private func pairs(in css: String) -> Set<[String]> {
        var pairs: Set<[String]> = [["--fg", "--bg"]]
        for rule in css.split(separator: "}") {
            guard let open = rule.lastIndex(of: "{") else { continue }
            var text: String?
            var background = "--bg"
            for declaration in rule[rule.index(after: open)...].split(separator: ";") {
                let pair = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                guard pair.count == 2, pair[1].hasPrefix("var(") else { continue }
                let name = String(pair[1].dropFirst(4).prefix { $0 != ")" })
                if pair[0] == "color" { text = name }
                if pair[0] == "background" || pair[0] == "background-color" { background = name }
            }
            if let text { pairs.insert([text, background]) }
        }
        return pairs
    }

    /// The relative luminance of `#rrggbb` (WCAG 2.2).
    private func luminance(_ hex: String) throws -> Double {
        let value = try #require(UInt32(hex.dropFirst(), radix: 16))
        let channels = [value >> 16, value >> 8 & 0xFF, value & 0xFF].map { channel in
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

    private func ratio(_ a: String, _ b: String) throws -> Double {
        let (x, y) = (try luminance(a), try luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test func everyTextColourOnItsBackgroundHasAContrastOfAtLeast4Point5() throws {
        let css = WebAssets.style
        let light = try colours(after: ":root {", in: css)
        let dark = try colours(after: "@media (prefers-color-scheme: dark) {\n  :root {", in: css)
        let pairs = pairs(in: css)

        #expect(pairs.count >= 5)
        for (scheme, colours) in [("light", light), ("dark", dark)] {
            for pair in pairs {
                let text = try #require(colours[pair[0]], "\(pair[0]) in the \(scheme) scheme")
                let background = try #require(colours[pair[1]], "\(pair[1]) in the \(scheme) scheme")
                let contrast = try ratio(text, background)
                #expect(contrast >= 4.5, "\(pair[0]) on \(pair[1]) in the \(scheme) scheme: \(contrast)")
            }
        }
    }

    @Test func theRatioIsComputedAsWCAGSaysForKnownColours() throws {
        #expect(abs(try ratio("#000000", "#ffffff") - 21) < 0.001)
        #expect(abs(try ratio("#777777", "#ffffff") - 4.48) < 0.01)
    }
}
